/**
 * The new key's uploaders, in its creation dialog (the only time the full key is known): a
 * ShareX `.sxcu` to download, a `curl` line and a Flameshot snippet to copy. Each uploads to
 * `upload-direct` and gets the share URL back as plain text.
 */
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { CopyButton } from "../../components/CopyButton.tsx";
import { CopyText } from "../../components/CopyText.tsx";
import { downloadBlob } from "../../lib/download.ts";
import {
  curlCommand,
  flameshotScript,
  shareXConfig,
  shareXFileName,
  type UploaderTarget,
} from "./uploader_configs.ts";

export function UploaderConfigs({ target }: { target: UploaderTarget }) {
  const { t } = useTranslation();
  const id = useId();
  const curl = curlCommand(target);
  const flameshot = flameshotScript(target);
  const downloadShareX = () =>
    downloadBlob(
      new Blob([JSON.stringify(shareXConfig(target), null, 2)], { type: "application/json" }),
      shareXFileName(target.name),
    );
  return (
    <section className="uploader-configs" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t("keys.uploaders.title")}</h3>
      <p className="field-hint">{t("keys.uploaders.intro")}</p>
      <div className="uploader-config">
        <h4>{t("keys.uploaders.sharex")}</h4>
        <p className="field-hint">{t("keys.uploaders.sharexHint")}</p>
        <button type="button" className="btn" onClick={downloadShareX}>
          {t("keys.uploaders.sharexDownload")}
        </button>
      </div>
      <div className="uploader-config">
        <label htmlFor={`${id}-curl`}>{t("keys.uploaders.curl")}</label>
        <CopyText id={`${id}-curl`} className="input-mono" value={curl} lines={3} />
        <CopyButton text={curl} label={t("keys.uploaders.copyCurl")} className="btn btn-small" />
      </div>
      <div className="uploader-config">
        <label htmlFor={`${id}-flameshot`}>{t("keys.uploaders.flameshot")}</label>
        <CopyText id={`${id}-flameshot`} className="input-mono" value={flameshot} lines={6} />
        <CopyButton
          text={flameshot}
          label={t("keys.uploaders.copyFlameshot")}
          className="btn btn-small"
        />
      </div>
    </section>
  );
}
