/** Browser downloads started from script: a URL, or a Blob made in the page. */

/** Starts a browser download of `url`, saved under `name`. */
export function downloadUrl(url: string, name: string): void {
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
}

/**
 * Hands a Blob to the browser as a download named `name`; its object URL is revoked after
 * `keepMs` (long enough for the browser to start reading it).
 */
export function downloadBlob(blob: Blob, name: string, keepMs = 10_000): void {
  const url = URL.createObjectURL(blob);
  downloadUrl(url, name);
  setTimeout(() => URL.revokeObjectURL(url), keepMs);
}
