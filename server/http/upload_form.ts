/**
 * Streaming multipart/form-data parsing with busboy: fields that come before the file are
 * collected, and the file part is handed over as a web stream without buffering it.
 * Clients send the file field last (our client does); later fields are ignored.
 */
import Busboy from "busboy";
import { Readable } from "node:stream";
import { AppError } from "../errors.ts";

export type UploadForm = {
  fields: Record<string, string>;
  file: { stream: ReadableStream<Uint8Array>; filename: string; mimeType: string };
};

/** Parses the request up to its file part. Throws 400 when there is no file or the form is bad. */
export function readUploadForm(req: Request): Promise<UploadForm> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data") || !req.body) {
    return Promise.reject(new AppError("file_required", 400));
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    const fields: Record<string, string> = {};
    let bb: Busboy.Busboy;
    try {
      bb = Busboy({
        headers: { "content-type": type },
        limits: { fields: 50, fieldSize: 64 * 1024, files: 1, parts: 60 },
        defParamCharset: "utf8",
      });
    } catch {
      reject(new AppError("validation_failed", 400));
      return;
    }
    bb.on("field", (name, value) => {
      if (!settled) fields[name] = value;
    });
    bb.on("file", (name, stream, info) => {
      if (settled || name !== "file") {
        stream.resume();
        return;
      }
      settled = true;
      resolve({
        fields,
        file: {
          stream: Readable.toWeb(stream) as ReadableStream<Uint8Array>,
          filename: fields.filename || info.filename || "file",
          mimeType: fields.mimetype || info.mimeType,
        },
      });
    });
    bb.on("error", (err) => {
      if (!settled) {
        settled = true;
        reject(new AppError("validation_failed", 400, { message: String(err) }));
      }
    });
    bb.on("close", () => {
      if (!settled) {
        settled = true;
        reject(new AppError("file_required", 400));
      }
    });
    Readable.fromWeb(req.body as import("node:stream/web").ReadableStream).pipe(bb);
  });
}
