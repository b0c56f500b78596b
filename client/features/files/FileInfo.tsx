/** A file share's facts: size, type, upload time, expiry, views, remark and password. */
import type { ReactNode } from "react";
import { MimeType } from "./MimeType.tsx";
import { useTranslation } from "react-i18next";
import type { FileMeta } from "./files_api.ts";
import { formatBytes } from "../../lib/format.ts";
import { Fact, ShareLifeFacts } from "../../components/ShareFacts.tsx";

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
      <ShareLifeFacts
        share={file}
        local={local}
        texts="file.info"
        created="uploaded"
        passwordBadge="badge badge-warning"
      />
      {file.remark && (
        <Fact term={t("file.info.remark")} className="file-facts-wide">{file.remark}</Fact>
      )}
    </dl>
  );
}

/** The side card of a file page: its facts, and `children` below them. */
export function FileInfoCard(
  { file, local, children }: {
    file: FileMeta & { own_view?: boolean };
    local: boolean;
    children?: ReactNode;
  },
) {
  const { t } = useTranslation();
  return (
    <section className="file-card" aria-labelledby="file-info-title">
      <h2 id="file-info-title">{t("file.info.title")}</h2>
      <FileInfo file={file} local={local} />
      {children}
    </section>
  );
}
