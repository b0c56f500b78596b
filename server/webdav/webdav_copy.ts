/**
 * WebDAV COPY and MOVE (RFC 4918 §9.8-9.9): Destination, Overwrite (F → 412), Depth (COPY 0
 * or infinity; MOVE infinity only), 201 for a new destination and 204 for a replaced one.
 * Dead properties travel with the resource; locks never do (a moved resource's locks end).
 */
import type { DavContext, DavRequest } from "./webdav_context.ts";
import { isSameOrBelow, parentOf, parseDavUrl } from "./webdav_paths.ts";
import { checkPreconditions, davText } from "./webdav_http.ts";

/** COPY or MOVE of the request target to the Destination header. */
export async function handleCopyMove(dav: DavContext, req: DavRequest): Promise<Response> {
  const move = req.method === "MOVE";
  const destHeader = req.headers.get("destination");
  if (!destHeader) return davText(400, "webdav_destination_invalid", req.lang);
  const destPath = parseDavUrl(destHeader, req.url);
  const overwrite = (req.headers.get("overwrite") ?? "T").trim().toUpperCase();
  if (overwrite !== "T" && overwrite !== "F") return davText(400, "validation_failed", req.lang);
  const depth = (req.headers.get("depth") ?? "infinity").trim().toLowerCase();
  if (depth !== "infinity" && (move || depth !== "0")) {
    return davText(400, "webdav_depth_invalid", req.lang);
  }

  const src = await dav.target(req);
  if (!src.entry) return davText(404, "file_not_found", req.lang);
  if (!src.r || !src.r.key) return davText(403, "webdav_virtual_folder", req.lang);
  const dst = await dav.target(req, destPath);
  if (!dst.r || !dst.r.key) return davText(403, "webdav_virtual_folder", req.lang);
  if (isSameOrBelow(dst.path, src.path) || (dst.entry && isSameOrBelow(src.path, dst.path))) {
    return davText(403, "webdav_same_resource", req.lang);
  }
  if (!await dav.isCollection(parentOf(dst.path), req.auth)) {
    return davText(409, "webdav_parent_missing", req.lang);
  }
  if (checkPreconditions(req.headers, src.entry, false)) {
    return davText(412, "webdav_precondition_failed", req.lang);
  }
  const targets = [
    ...(move ? dav.lockTarget(src, true, true) : []),
    ...dav.lockTarget(dst, true, true),
  ];
  const blocked = await dav.checkWrite(req, src, targets);
  if (blocked) return blocked;
  if (dst.entry) {
    if (overwrite === "F") return davText(412, "webdav_precondition_failed", req.lang);
    await dav.removeResource(dst, req.auth);
  }

  const from = { mountId: src.r.mount.id, key: src.r.key };
  const to = { mountId: dst.r.mount.id, key: dst.r.key };
  if (move) {
    await dav.fs.move(src.path, dst.path, req.auth);
    await dav.props.copyTree(from, to, true);
    await dav.props.deleteTree(from.mountId, from.key, true);
    await dav.locks.removeUnder(from.mountId, from.key);
    await dav.keepParent(src.path, req.auth);
  } else {
    const shallow = depth === "0";
    await dav.fs.copy(src.path, dst.path, req.auth, { shallow });
    await dav.props.copyTree(from, to, !shallow);
  }
  return new Response(null, { status: dst.entry ? 204 : 201 });
}
