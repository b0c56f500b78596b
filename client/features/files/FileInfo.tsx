/** A file share's facts: size, type, upload time, expiry, views, remark and password. */
import { MimeType } from "./MimeType.tsx";
import { useTranslation } from "react-i18next";
import type { FileMeta } from "./files_api.ts";
import { formatBytes } from "../../lib/format.ts";
import { Fact, ShareTime } from "../../components/ShareFacts.tsx";

export function FileInfo(
  { file, local }: {
    file: FileMeta & { own_view?: boolean };
    /** Format times in the visitor's zone (after hydration), else in UTC. */
    local: boolean;
  },
) {
  const { t } = useTranslation();
  return (
    <dl className="file-facts">
      <Fact term={t("file.info.size")}>
        <span title={t("file.info.bytes", { n: file.size })}>{formatBytes(file.size)}</span>
      </Fact>
      <div>
        <dt>{t("file.info.type")}</dt>
        <dd className="file-facts-type">
          {file.mimetype ? <MimeType type={file.mimetype} /> : "—"}
        </dd>
      </div>
      <Fact term={t("file.info.uploaded")}>
        <ShareTime iso={file.created_at} local={local} />
      </Fact>
      <Fact term={t("file.info.expires")}>
        <ShareTime iso={file.expires_at} local={local} never={t("file.info.never")} />
      </Fact>
      <Fact term={t("file.info.views")}>
        {file.max_views > 0
          ? t("file.info.viewsOf", { views: file.views, max: file.max_views })
          : t("file.info.viewsUnlimited", { views: file.views })}
        {file.own_view && <span className="fact-note">{t("file.info.ownView")}</span>}
      </Fact>
      {file.has_password && (
        <Fact term={t("file.info.access")}>
          <span className="badge badge-warning">{t("file.info.passwordProtected")}</span>
        </Fact>
      )}
      {file.remark && (
        <Fact term={t("file.info.remark")} className="file-facts-wide">{file.remark}</Fact>
      )}
    </dl>
  );
}
