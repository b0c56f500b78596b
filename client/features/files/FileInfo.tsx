/** A file share's facts: size, type, upload time, expiry, views, remark and password. */
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../pastes/time.ts";
import type { FileMeta } from "./files_api.ts";
import { formatFileSize } from "./format.ts";

export function FileInfo(
  { file, local }: {
    file: FileMeta;
    /** Format times in the visitor's zone (after hydration), else in UTC. */
    local: boolean;
  },
) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <dl className="file-facts">
      <div>
        <dt>{t("file.info.size")}</dt>
        <dd>
          <span title={t("file.info.bytes", { n: file.size })}>{formatFileSize(file.size)}</span>
        </dd>
      </div>
      <div>
        <dt>{t("file.info.type")}</dt>
        <dd className="file-facts-type">{file.mimetype || "—"}</dd>
      </div>
      <div>
        <dt>{t("file.info.uploaded")}</dt>
        <dd>
          <time dateTime={file.created_at}>{formatDateTime(file.created_at, lang, local)}</time>
        </dd>
      </div>
      <div>
        <dt>{t("file.info.expires")}</dt>
        <dd>
          {file.expires_at
            ? (
              <time dateTime={file.expires_at}>
                {formatDateTime(file.expires_at, lang, local)}
              </time>
            )
            : t("file.info.never")}
        </dd>
      </div>
      <div>
        <dt>{t("file.info.views")}</dt>
        <dd>
          {file.max_views > 0
            ? t("file.info.viewsOf", { views: file.views, max: file.max_views })
            : t("file.info.viewsUnlimited", { views: file.views })}
        </dd>
      </div>
      {file.has_password && (
        <div>
          <dt>{t("file.info.access")}</dt>
          <dd>
            <span className="badge badge-warning">{t("file.info.passwordProtected")}</span>
          </dd>
        </div>
      )}
      {file.remark && (
        <div className="file-facts-wide">
          <dt>{t("file.info.remark")}</dt>
          <dd>{file.remark}</dd>
        </div>
      )}
    </dl>
  );
}
