/**
 * The manifest's share_target (POST /share-target, multipart: title, text, url, files): the
 * worker keeps the shared payload in the offline store (files as Blobs) and answers 303 to the
 * editor (`/?share=1`) or, when files came along, to the upload screen (`/upload?share=1`).
 * Both pages take the payload from there; offline they work from the precached shell.
 */
import { registerRoute } from "workbox-routing";
import { SHARE_TARGET_PATH } from "../../shared/pwa.ts";
import { saveSharedPayload, type SharedFile } from "../offline/shared_payload.ts";

/** Reads the shared form and stores it; the redirect target depends on files being present. */
async function receiveShare(request: Request): Promise<Response> {
  const form = await request.formData();
  const field = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const files: SharedFile[] = [];
  for (const value of form.getAll("files")) {
    if (typeof value === "string" || value.size === 0 && value.name === "") continue;
    files.push({
      name: value.name,
      type: value.type,
      lastModified: value.lastModified,
      blob: value,
    });
  }
  await saveSharedPayload({
    title: field("title"),
    text: field("text"),
    url: field("url"),
    files,
    receivedAt: Date.now(),
  });
  return Response.redirect(files.length > 0 ? "/upload?share=1" : "/?share=1", 303);
}

/** Registers the share-target route (POST only; a GET falls to navigation). */
export function registerShareTarget() {
  registerRoute(
    ({ url }) => url.origin === location.origin && url.pathname === SHARE_TARGET_PATH,
    ({ request }) => receiveShare(request),
    "POST",
  );
}
