/**
 * Upload (`/upload`, admin or a key with FILE_SHARE): files come in by drag and drop, the
 * picker or pasting, or from a URL (its own tab); they wait in a queue until started, then
 * upload one or two at a time with a progress bar, speed and time left each, and end with a
 * share link (docs/PRODUCT.md §2.3, §3.11, §4.3). Files over the multipart threshold go up in
 * resumable parts; other files take the presigned flow on S3 configs and the form upload on local
 * storage, unless the user picks a method under "Advanced". Files over the server's max size are
 * refused before sending. Choosing a file again after a reload resumes its unfinished upload.
 */
import { focusElement } from "../../lib/focus.ts";
import { useCallback, useEffect, useMemo, useReducer, useState } from "react";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../app/use_page_title.ts";
import { useAuth } from "../../auth/auth_store.ts";
import { ApiError } from "../../api/client.ts";
import { hasResume, multipartThreshold, type UrlInfo } from "../../lib/uploader.ts";
import { DropZone } from "./DropZone.tsx";
import { UploadSourceTabs } from "./UploadSourceTabs.tsx";
import { UrlUploadPanel } from "./UrlUploadPanel.tsx";
import { type UploadFormErrors, UploadOptionsForm } from "./UploadOptionsForm.tsx";
import { UploadQueueList } from "./UploadQueueList.tsx";
import { RecentUploads } from "./RecentUploads.tsx";
import { uploadErrorText } from "./UploadItemRow.tsx";
import { useUploadQueue } from "./use_upload_queue.ts";
import { useSharedFiles } from "../../offline/use_shared_files.ts";
import { useUploadSetup } from "./use_upload_setup.ts";
import { formatBytes } from "../../lib/format.ts";
import type { QueueItem, SettledEvent } from "./upload_queue.ts";
import {
  checkSlug,
  INITIAL_VALUES,
  initialConfigId,
  loadMethodChoice,
  methodFor,
  parseMaxViews,
  pastedFileName,
  saveMethodChoice,
  toShareOptions,
  type UploadFormValues,
} from "./upload_form.ts";
import { PageHeader } from "../../components/PageHeader.tsx";

const STARTABLE = new Set(["ready", "failed", "cancelled"]);

export default function UploadPage() {
  usePageTitle("pageTitle.upload");
  const { t } = useTranslation();
  const auth = useAuth();
  const setup = useUploadSetup();
  const { reloadConfigs } = setup;
  const [values, setValues] = useState<UploadFormValues>(() => ({
    ...INITIAL_VALUES,
    method: loadMethodChoice(),
  }));
  const [serverSlugError, setServerSlugError] = useState<string | null>(null);
  const [recentKey, refreshRecent] = useReducer((n: number) => n + 1, 0);
  const [announcement, setAnnouncement] = useState("");

  const onSettled = useCallback((e: SettledEvent) => {
    const name = e.item.name;
    if (e.kind === "done") {
      refreshRecent();
      reloadConfigs(); // their used space changed
      setAnnouncement(t("upload.announce.done", { name }));
      // A custom suffix is taken now; clear it so the next upload does not collide.
      setValues((v) => (v.slug && e.result.slug === v.slug.trim() ? { ...v, slug: "" } : v));
    } else if (e.kind === "failed") {
      setAnnouncement(t("upload.announce.failed", { name, error: uploadErrorText(t, e.error) }));
      if (e.error instanceof ApiError && e.error.code.startsWith("slug_")) {
        setServerSlugError(uploadErrorText(t, e.error));
      }
    } else setAnnouncement(t("upload.announce.cancelled", { name }));
  }, [t, reloadConfigs]);
  const { queue, items } = useUploadQueue(onSettled);

  // Select the default config once the list arrives (or when the selection disappears).
  const configs = setup.configs;
  useEffect(() => {
    if (!configs) return;
    setValues((v) =>
      configs.some((c) => c.id === v.configId) ? v : { ...v, configId: initialConfigId(configs) }
    );
  }, [configs]);

  const maxBytes = setup.maxSize?.bytes ?? null;
  const maxSizeText = setup.maxSize
    ? (setup.maxSize.unit && setup.maxSize.value
      ? `${setup.maxSize.value} ${setup.maxSize.unit}`
      : formatBytes(setup.maxSize.bytes))
    : null;

  const tooLarge = useCallback(
    (size: number | null) =>
      maxBytes !== null && size !== null && size > maxBytes
        ? new ApiError("file_too_large", 413, null, { file_size: size, max_bytes: maxBytes })
        : null,
    [maxBytes],
  );

  const e2e = values.e2e;
  const addFiles = useCallback((files: File[], pasted = false) => {
    const ids = queue.add(
      files,
      (f) => tooLarge(f.size),
      pasted ? (f) => pastedFileName(f) : undefined,
      (f, name) => hasResume({ name, size: f.size, lastModified: f.lastModified, e2e }),
    );
    setAnnouncement(t("upload.announce.added", { count: ids.length }));
  }, [queue, tooLarge, t, e2e]);

  // Files shared to the installed app (share target) join the queue.
  useSharedFiles(addFiles);

  // Files pasted anywhere on the page join the queue (text pastes are left alone).
  useEffect(() => {
    const onPaste = (e: ClipboardEvent) => {
      const files = Array.from(e.clipboardData?.files ?? []);
      if (files.length === 0) return;
      e.preventDefault();
      addFiles(files, true);
    };
    document.addEventListener("paste", onPaste);
    return () => document.removeEventListener("paste", onPaste);
  }, [addFiles]);

  const startable = useMemo(() => items.filter((i) => STARTABLE.has(i.status)), [items]);
  const slugUsable = startable.length <= 1;
  const slugCode = checkSlug(values.slug.trim());
  const maxViews = parseMaxViews(values.maxViews);
  const errors: UploadFormErrors = {
    slug: slugCode ? t(`errors.${slugCode}`) : serverSlugError,
    maxViews: maxViews === null ? t("errors.max_views_invalid") : null,
  };
  const noStorage = !!configs && configs.length === 0;
  const formValid = !(slugUsable && slugCode) && maxViews !== null;

  const change = (patch: Partial<UploadFormValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    if ("slug" in patch) setServerSlugError(null);
    if (patch.method) saveMethodChoice(patch.method);
  };

  /** Starts the given items with the options as they are now. */
  /** Starts the uploads `ids`; false when none started (the form's error has the focus). */
  const start = (ids: string[]) => {
    if (ids.length === 0) return false;
    if (!formValid) {
      document.getElementById(slugUsable && slugCode ? "upload-slug" : "upload-max-views")
        ?.focus();
      return false;
    }
    const config = configs?.find((c) => c.id === values.configId);
    const withSlug = queue.getSnapshot().filter((i) => STARTABLE.has(i.status)).length === 1;
    if (withSlug) setServerSlugError(null);
    const threshold = multipartThreshold();
    queue.start(ids, (item: QueueItem) => ({
      method: methodFor(values.method, config, item.size ?? 0, threshold),
      options: toShareOptions(values, withSlug),
      // Files only: a URL upload is never encrypted (its panel is off meanwhile).
      encrypt: values.e2e && item.file !== null,
    }));
    return true;
  };

  const startAll = () => {
    // The start button is disabled once nothing is left to start: the queue, where the
    // uploads now show their progress, takes the focus instead of <body>.
    if (start(startable.filter((i) => i.status === "ready").map((i) => i.id))) {
      focusElement(document.getElementById("upload-queue-title"));
    }
  };

  /** A URL from the URL tab joins the queue and starts at once. */
  const uploadUrl = (info: UrlInfo) => {
    const error = tooLarge(info.size);
    const id = queue.addUrl(info, error);
    setAnnouncement(t("upload.announce.added", { count: 1 }));
    if (!error) start([id]);
  };
  const readyCount = startable.filter((i) => i.status === "ready").length;

  return (
    <div className="page upload-page">
      <PageHeader title={t("upload.title")} intro={t("upload.intro")} />

      <div className="upload-layout">
        <div className="upload-area-drop">
          <UploadSourceTabs
            files={<DropZone onFiles={addFiles} maxSizeText={maxSizeText} />}
            url={
              <>
                {values.e2e && <p className="alert">{t("e2e.toggle.urlOff")}</p>}
                <UrlUploadPanel
                  onUpload={uploadUrl}
                  disabled={noStorage || !configs || values.e2e}
                />
              </>
            }
          />
        </div>

        <form
          className="card upload-area-options"
          aria-labelledby="upload-options-title"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            startAll();
          }}
        >
          <h2 id="upload-options-title">{t("upload.options.title")}</h2>
          <UploadOptionsForm
            values={values}
            onChange={change}
            errors={errors}
            configs={configs}
            configsError={setup.configsError}
            onReloadConfigs={setup.reloadConfigs}
            slugUsable={slugUsable}
            isAdmin={auth.authType === "admin"}
          />
          <div className="upload-start">
            <button
              type="submit"
              id="upload-start"
              className="btn btn-primary btn-block"
              disabled={readyCount === 0 || noStorage || !configs}
            >
              {t("upload.options.start", { count: readyCount })}
            </button>
            {readyCount === 0 && <p className="field-hint">{t("upload.options.nothingReady")}</p>}
          </div>
        </form>

        <div className="upload-area-queue">
          <UploadQueueList
            items={items}
            onCancel={(id) => queue.cancel(id)}
            onRetry={(item) => start([item.id])}
            onRemove={(id) => queue.remove(id)}
            onCancelAll={() => queue.cancelAll()}
            onClearFinished={() => queue.clearFinished()}
          />
        </div>
      </div>

      <RecentUploads refreshKey={recentKey} />

      <div className="sr-only" role="status" aria-live="polite">{announcement}</div>
    </div>
  );
}
