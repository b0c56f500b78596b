/**
 * The page of an end-to-end encrypted file share (`/file/:slug`). The server renders it from
 * metadata only (ciphertext size and times); after hydration the key is read from the fragment,
 * the password asked when one is mixed in, and the share opened with the access token (one
 * counted view). Its name and type are then decrypted here; the preview decrypts the file in
 * memory (small files), the download streams it through the service worker (any size).
 */
import { type ComponentProps, Suspense, useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApiError } from "../../api/client.ts";
import { lazyPage } from "../../app/lazy_page.ts";
import { PageErrorBoundary } from "../../components/PageErrorBoundary.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import { CopyText } from "../../components/CopyText.tsx";
import { DEFAULT_RECORD_SIZE, plaintextSize } from "../../../shared/e2e/stream.ts";
import type { E2EDescriptor } from "../../../shared/e2e/descriptor.ts";
import { FileInfoCard } from "../files/FileInfo.tsx";
import { FileShare } from "../files/FileShare.tsx";
import { FileDeleteDialog } from "../files/FileDelete.tsx";
import type { FileMeta, FileView } from "../files/files_api.ts";
import { E2EOpening } from "./E2EOpening.tsx";
import { E2EDownloadButton } from "./E2EDownloadButton.tsx";
import { useE2EOpen } from "./use_e2e_open.ts";
import type { OpenedFile } from "./e2e_open.ts";
import { cliCommand } from "./e2e_limits.ts";
import type { E2EFilePreview as LoadedPreview } from "./E2EFilePreview.tsx";
import { useIsClient } from "../../components/ShareFacts.tsx";
import { ShareManageButtons } from "../../components/ShareManageButtons.tsx";

/** The preview decrypts in the page, so it loads after the share opened. */
const E2EFilePreview = lazyPage<ComponentProps<typeof LoadedPreview>>(() =>
  import("./E2EFilePreview.tsx").then((m) => ({ default: m.E2EFilePreview }))
);

export function E2EFileView(
  { slug, meta, descriptor, managed, onGone, onDeleted }: {
    slug: string;
    /** What the server rendered (sizes and times); null after in-app navigation. */
    meta: FileMeta | null;
    descriptor: E2EDescriptor;
    /** The owner's view of the share, when the caller manages it. */
    managed: FileView | null;
    /** Ends the page for a share that is gone or used up (the caller's error screen). */
    onGone: (err: ApiError) => void;
    onDeleted: () => void;
  },
) {
  const { t } = useTranslation();
  const isClient = useIsClient();
  const [deleting, setDeleting] = useState(false);
  const open = useCallback(
    async (hash: string, password: string | null) =>
      (await import("./e2e_open.ts")).openEncryptedFile(slug, descriptor, hash, password),
    [slug, descriptor],
  );
  const opening = useE2EOpen<OpenedFile>("file", descriptor, open, onGone);
  const opened = opening.state.kind === "ready" ? opening.state.value : null;

  // Facts: the real name, type and size once decrypted; before that, no type and the size the
  // ciphertext stands for.
  const base = opened?.file ?? meta;
  const facts: FileMeta | null = base && {
    ...base,
    size: opened?.size ?? plaintextSize(base.size, DEFAULT_RECORD_SIZE) ?? base.size,
    mimetype: opened?.meta.type ?? "",
    filename: opened?.meta.name ?? t("e2e.encryptedName"),
    has_password: descriptor.has_password,
  };
  const link = isClient ? new URL(`/file/${slug}`, location.origin).href + location.hash : "";

  return (
    <article className="file-page" aria-labelledby="file-title">
      <header className="file-head">
        <div className="file-head-title">
          <h1 id="file-title">{opened?.meta.name ?? t("e2e.encryptedName")}</h1>
          <p className="muted file-slug">
            {t("file.title")} · <code>{slug}</code>{" "}
            <span className="badge badge-primary">{t("e2e.badge")}</span>
          </p>
        </div>
        <div className="file-head-actions">
          {opened && <E2EDownloadButton opened={opened} link={link} />}
          {managed && (
            <ShareManageButtons
              kind="file"
              canEdit={false}
              onOpen={() => setDeleting(true)}
            />
          )}
        </div>
      </header>
      <div className="file-layout">
        <section className="file-card file-main" aria-label={t("preview.label")}>
          <E2EOpening
            opening={opening}
            ready={isClient}
            className="file-preview-loading"
            text={t("e2e.opening")}
          />
          {opened && (
            <PageErrorBoundary>
              <Suspense fallback={<Spinner />}>
                <E2EFilePreview opened={opened} />
              </Suspense>
            </PageErrorBoundary>
          )}
        </section>
        <aside className="file-side">
          {facts && (
            <FileInfoCard file={facts} local={isClient}>
              <p className="muted">{t("e2e.file.serverFeatures")}</p>
            </FileInfoCard>
          )}
          {opened && <FileShare slug={slug} url={link} />}
          {opened && (
            <section className="file-card" aria-labelledby="e2e-cli-title">
              <h2 id="e2e-cli-title">{t("e2e.cli.title")}</h2>
              <p className="muted">{t("e2e.cli.body")}</p>
              <CopyText id="e2e-cli-command" className="input-mono" value={cliCommand(link)} />
            </section>
          )}
        </aside>
      </div>
      {managed && (
        <FileDeleteDialog
          open={deleting}
          file={managed}
          onCancel={() => setDeleting(false)}
          onDeleted={onDeleted}
        />
      )}
    </article>
  );
}
