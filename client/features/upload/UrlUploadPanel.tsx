/**
 * The "From URL" tab (docs/PRODUCT.md §7.7): the user enters a URL, fetches its details (name,
 * size, type) through `url/info`, which refuses private and loopback addresses, and then
 * uploads it: the file joins the queue and starts at once, with the download shown over
 * 0–49 % of its bar and the upload over 50–99 %.
 */
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client.ts";
import { fetchUrlInfo, type UrlInfo } from "../../lib/uploader.ts";
import { uploadErrorText } from "./UploadItemRow.tsx";
import { formatBytes } from "../../lib/format.ts";

/** A URL the server may be asked about: http(s) with a host. */
export function parseHttpUrl(raw: string): string | null {
  const v = raw.trim();
  if (!v) return null;
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:/i.test(v) ? v : `https://${v}`);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname ? u.href : null;
  } catch {
    return null;
  }
}

export function UrlUploadPanel(
  { onUpload, disabled }: {
    /** Adds the URL to the queue and starts it. */
    onUpload: (info: UrlInfo) => void;
    disabled?: boolean;
  },
) {
  const { t } = useTranslation();
  const [url, setUrl] = useState("");
  const [info, setInfo] = useState<UrlInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const abortRef = useRef<AbortController | null>(null);

  const fetchInfo = async (e: FormEvent) => {
    e.preventDefault();
    setInfo(null);
    const target = parseHttpUrl(url);
    if (!target) {
      setError(uploadErrorText(t, new ApiError("url_invalid", 400, null)));
      return;
    }
    setError(null);
    setBusy(true);
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      setInfo(await fetchUrlInfo(target, controller.signal));
    } catch (err) {
      if (!controller.signal.aborted) setError(uploadErrorText(t, err));
    } finally {
      if (abortRef.current === controller) abortRef.current = null;
      setBusy(false);
    }
  };

  const upload = () => {
    if (!info) return;
    onUpload(info);
    setInfo(null);
    setUrl("");
  };

  return (
    <div className="upload-url">
      <form className="upload-url-form" onSubmit={fetchInfo} noValidate>
        <div className="field">
          <label htmlFor="upload-url-input">{t("upload.url.label")}</label>
          <div className="upload-url-row">
            <input
              id="upload-url-input"
              className="input"
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://example.com/file.zip"
              value={url}
              disabled={disabled}
              aria-describedby="upload-url-hint"
              aria-invalid={error ? true : undefined}
              onChange={(e) => {
                setUrl(e.currentTarget.value);
                setInfo(null);
                setError(null);
              }}
            />
            {busy
              ? (
                <button
                  type="button"
                  className="btn"
                  onClick={() => abortRef.current?.abort()}
                >
                  {t("upload.url.cancelFetch")}
                </button>
              )
              : (
                <button type="submit" className="btn" disabled={disabled || !url.trim()}>
                  {t("upload.url.fetch")}
                </button>
              )}
          </div>
          <p id="upload-url-hint" className="field-hint">{t("upload.url.hint")}</p>
        </div>
      </form>

      <div aria-live="polite">
        {busy && <p className="muted">{t("upload.url.fetching")}</p>}
        {error && (
          <div className="alert alert-error" role="alert">
            <span>{error}</span>
          </div>
        )}
        {info && (
          <section className="upload-url-info" aria-label={t("upload.url.infoTitle")}>
            <dl>
              <div>
                <dt>{t("upload.url.name")}</dt>
                <dd className="upload-url-name">{info.filename}</dd>
              </div>
              <div>
                <dt>{t("upload.url.size")}</dt>
                <dd>
                  {info.size === null ? t("upload.item.sizeUnknown") : formatBytes(info.size)}
                </dd>
              </div>
              <div>
                <dt>{t("upload.url.type")}</dt>
                <dd>{info.content_type}</dd>
              </div>
            </dl>
            <button type="button" className="btn btn-primary" onClick={upload} disabled={disabled}>
              {t("upload.url.upload")}
            </button>
          </section>
        )}
      </div>
    </div>
  );
}
