/**
 * Streaming multipart/form-data parsing with busboy, fields in any order.
 *
 * A route names the fields that decide where or how the file is stored (`decides`). When all
 * of them came before the file part, the file streams straight through to its destination,
 * and `complete` resolves with every field (the later ones too) once the form has ended; the
 * route applies those before it records anything. When the file comes before one of them, it
 * is spooled to a temp file under the data directory (at most `maxBytes`, else 413), the rest of
 * the form is read, and only then is the form handed over, with every field known.
 *
 * A truncated or malformed form is 400 `upload_form_invalid`, a field sent twice too (which
 * value would count is not obvious). `dispose()` removes the spool file on every path.
 */
import Busboy from "busboy";
import { Readable } from "node:stream";
import { join } from "node:path";
import { ulid } from "../lib/ulid.ts";
import { AppError, fileTooLarge } from "../errors.ts";
import { holdTemp, releaseTemp } from "../storage/temp_files.ts";

export type UploadForm = {
  /** The fields known when the form was handed over: those before the file, or all if spooled. */
  fields: Record<string, string>;
  /** The file part; `filename` and `mimeType` prefer the fields of those names seen so far. */
  file: { stream: ReadableStream<Uint8Array>; filename: string; mimeType: string };
  /** True when the file was spooled (it came before a deciding field). */
  spooled: boolean;
  /** Every field, once the whole form was read (after the file stream is drained); 400 if bad. */
  complete: Promise<Record<string, string>>;
  /** Stops reading and removes the spool file; safe to call more than once. */
  dispose: () => Promise<void>;
  /** Why the form failed so far (truncated, malformed), or null. */
  error: () => AppError | null;
};

export type UploadFormOptions = {
  /** Fields that decide where or how the file is stored (see the module comment). */
  decides: readonly string[];
  /** Folder for spooled files (created when missing). */
  spoolDir: string;
  /** Most bytes a spooled file may hold. */
  maxBytes: number;
};

/** The 400 a broken form answers with. */
function formError(reason: string): AppError {
  return new AppError("upload_form_invalid", 400, { reason });
}

function asFormError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return formError(err instanceof Error ? err.message : String(err));
}

/**
 * A web stream over busboy's file stream whose errors are the form's 400. It ends only once the
 * whole form has been read, so a consumer never commits a file whose form then breaks.
 *
 * Busboy calls these listeners from its own event loop turn, outside any promise chain, so none
 * of them may throw: once the consumer cancels (a size mismatch, a 413, a failed write), busboy
 * still emits the rest of the part while it drains, and enqueueing into, closing or erroring a
 * finished stream would throw there and end the process. `settled` makes every late event a
 * no-op instead.
 */
function webStreamOf(node: Readable, formEnded: Promise<void>): ReadableStream<Uint8Array> {
  let settled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const settle = (finish: () => void) => {
        if (settled) return;
        settled = true;
        finish();
      };
      node.on("data", (chunk: Uint8Array) => {
        if (settled) return; // cancelled: the rest of the part is drained and dropped
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) node.pause();
      });
      node.once("end", () => {
        formEnded.then(
          () => settle(() => controller.close()),
          (err) => settle(() => controller.error(asFormError(err))),
        );
      });
      node.on("error", (err) => settle(() => controller.error(asFormError(err))));
    },
    pull() {
      node.resume();
    },
    cancel() {
      settled = true;
      node.resume(); // drain the rest so the form can still be read to its end
    },
  }, { highWaterMark: 4 });
}

/** Writes a file part to `path`, at most `max` bytes (else 413); returns its size. */
async function spoolPart(path: string, part: Readable, max: number): Promise<number> {
  const file = await Deno.open(path, { write: true, createNew: true });
  let size = 0;
  try {
    for await (const chunk of part as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > max) throw fileTooLarge(max);
      for (let off = 0; off < chunk.byteLength;) off += await file.write(chunk.subarray(off));
    }
  } finally {
    file.close();
  }
  return size;
}

/** A stream of a spooled file that removes it once read to the end or cancelled. */
async function spoolStream(path: string): Promise<ReadableStream<Uint8Array>> {
  const file = await Deno.open(path, { read: true });
  const drop = () => Deno.remove(path).then(() => releaseTemp(path), () => {});
  return file.readable.pipeThrough(
    new TransformStream({
      flush: () => void drop(),
    }),
  );
}

/**
 * Parses an upload form (see the module comment). Throws 400 `file_required` without a `file`
 * part, 400 `upload_form_invalid` for a broken form, 413 when a spooled file is too large.
 */
export function readUploadForm(req: Request, opts: UploadFormOptions): Promise<UploadForm> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data") || !req.body) {
    return Promise.reject(new AppError("file_required", 400));
  }
  let bb: Busboy.Busboy;
  try {
    bb = Busboy({
      headers: { "content-type": type },
      limits: { fields: 50, fieldSize: 64 * 1024, files: 1, parts: 60 },
      defParamCharset: "utf8",
    });
  } catch (err) {
    return Promise.reject(asFormError(err));
  }
  const source = Readable.fromWeb(req.body as import("node:stream/web").ReadableStream);
  const fields: Record<string, string> = {};
  let spoolPath: string | null = null;
  let spooling: Promise<number> | null = null;
  let fileInfo: { stream: Readable; filename: string; mimeType: string } | null = null;
  let failure: AppError | null = null;
  let ended = false;
  let spooled: ReadableStream<Uint8Array> | null = null;

  const dispose = async () => {
    if (!ended) {
      source.unpipe(bb);
      source.destroy();
      bb.destroy();
    }
    if (spoolPath) {
      await spooled?.cancel().catch(() => {}); // closes the file if it was never read
      fileInfo?.stream.destroy();
      await spooling?.catch(() => {}); // the file may still be being created
      await Deno.remove(spoolPath).catch(() => {});
      releaseTemp(spoolPath);
    }
  };

  let onEnd: (err: AppError | null) => void = () => {};
  const ended$ = new Promise<void>((resolve, reject) => {
    onEnd = (err) => {
      if (ended) return;
      ended = true;
      if (err) reject(err);
      else resolve();
    };
  });
  const fail = (err: unknown) => {
    failure ??= asFormError(err);
    fileInfo?.stream.destroy(failure);
    onEnd(failure);
  };

  return new Promise<UploadForm>((resolve, reject) => {
    const complete = ended$.then(async () => {
      if (spooling) await spooling;
      return { ...fields };
    });
    complete.catch(() => {}); // a caller that failed first need not await it

    bb.on("field", (name, value, info) => {
      if (info.valueTruncated || info.nameTruncated) {
        return fail(formError(`field ${name} too long`));
      }
      if (Object.hasOwn(fields, name)) return fail(formError(`field ${name} sent twice`));
      fields[name] = value;
    });
    bb.on("file", (name, stream, info) => {
      // Observed from the start: a small form can break (busboy destroys the part with the
      // reason) before the spool file is open, and an unobserved stream error ends the process.
      stream.on("error", fail);
      if (name !== "file") return stream.resume();
      if (fileInfo) return fail(formError("more than one file"));
      const filename = fields.filename || info.filename || "file";
      const mimeType = fields.mimetype || info.mimeType;
      fileInfo = { stream, filename, mimeType };
      if (opts.decides.every((f) => Object.hasOwn(fields, f))) {
        resolve({
          fields: { ...fields },
          file: { stream: webStreamOf(stream, ended$), filename, mimeType },
          spooled: false,
          complete,
          dispose,
          error: () => failure,
        });
        return;
      }
      spoolPath = join(opts.spoolDir, `${ulid()}.spool`);
      holdTemp(spoolPath);
      const path = spoolPath;
      spooling = Deno.mkdir(opts.spoolDir, { recursive: true })
        .then(() => spoolPart(path, stream, opts.maxBytes));
      spooling.catch((err) => {
        stream.resume();
        fail(err);
      });
    });
    bb.on("filesLimit", () => fail(formError("more than one file")));
    bb.on("partsLimit", () => fail(formError("too many parts")));
    bb.on("fieldsLimit", () => fail(formError("too many fields")));
    bb.on("error", (err) => fail(err));
    bb.on("finish", () => onEnd(null));
    bb.on("close", () => onEnd(failure ?? (fileInfo ? null : new AppError("file_required", 400))));
    source.on("error", (err) => fail(err));
    source.pipe(bb);

    complete.then(async (all) => {
      if (!fileInfo) return reject(new AppError("file_required", 400));
      if (!spoolPath) return; // streamed: handed over already
      resolve({
        fields: all,
        file: {
          stream: spooled = await spoolStream(spoolPath),
          filename: all.filename || fileInfo.filename,
          mimeType: all.mimetype || fileInfo.mimeType,
        },
        spooled: true,
        complete,
        dispose,
        error: () => failure,
      });
    }).catch(async (err) => {
      await dispose();
      reject(err);
    });
  });
}
