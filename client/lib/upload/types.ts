/**
 * The browser uploader's shared types: stages, progress, requests (docs/PRODUCT.md §3.11, §4.3).
 */
import type { FileView } from "../../../shared/schemas/files.ts";
import type { E2EDescriptor } from "../../../shared/e2e/descriptor.ts";

export type { FileView };

/**
 * The stages of one upload (docs/PRODUCT.md §4.3), in order; URL uploads add `downloading` (the
 * browser fetches the URL itself) and `proxyDownloading` (through Cubby's guarded proxy).
 */
export const UPLOAD_STAGES = [
  "starting",
  "initializing",
  "downloading",
  "proxyDownloading",
  "uploading",
  "processing",
  "completing",
  "completed",
] as const;
export type UploadStage = typeof UPLOAD_STAGES[number];

/**
 * "form" posts through Cubby; "presign" PUTs to a presigned URL and commits; "multipart" PUTs
 * 5 MiB parts to presigned part URLs (resumable) and completes.
 */
export type UploadMethod = "form" | "presign" | "multipart";

/** The multipart uploader's states (docs/PRODUCT.md §4.3). */
export type MultipartState = "idle" | "uploading" | "completed" | "failed" | "aborted";
/** One part's state (docs/PRODUCT.md §4.3). */
export type ChunkState = "pending" | "uploading" | "completed" | "failed";

/** Where a multipart upload stands: part counts, and each part's state for small uploads. */
export type PartsProgress = {
  state: MultipartState;
  total: number;
  completed: number;
  uploading: number;
  failed: number;
  /** Parts found already stored when the upload resumed (0 for a fresh upload). */
  resumed: number;
  /** Every part's state, when there are at most MAX_CHUNKS_SHOWN parts; else null. */
  chunks: ChunkState[] | null;
};

/** A snapshot of an upload's progress. */
export type UploadProgress = {
  stage: UploadStage;
  /** Bytes of the current phase done so far (downloaded, or sent). */
  loaded: number;
  /** Bytes of the current phase; 0 when unknown (a download without a length). */
  total: number;
  /** 0–100, whole numbers; a URL upload downloads over 0–49 and uploads over 50–99. */
  percent: number;
  /** Moving average in bytes per second (0 until measurable). */
  speed: number;
  /** Seconds left at the current speed; null when unknown. */
  eta: number | null;
  /** Multipart uploads only. */
  parts?: PartsProgress | null;
};

/** The share options sent with a file (docs/PRODUCT.md §3.11). */
export type ShareOptions = {
  s3ConfigId?: string;
  slug?: string;
  remark?: string;
  password?: string;
  /** Hours from now (the API's unit); 0 means never. */
  expiresIn?: number;
  /** 0 means unlimited. */
  maxViews?: number;
  useProxy?: boolean;
  /**
   * Set by the encrypting uploader (e2e_upload.ts), never by a screen: the bytes are
   * ciphertext, and `password` is then the access token derived from the key.
   */
  e2e?: E2EDescriptor;
};

/** What `POST /api/url/info` tells about a URL. */
export type UrlInfo = {
  url: string;
  filename: string;
  size: number | null;
  content_type: string;
};

/** Bytes made on demand (an encrypted file): the size, and any byte range as a Blob. */
export type ByteSource = { size: number; read(start: number, end: number): Promise<Blob> };

/** A file (or blob) to upload; `lastModified` makes a multipart upload resumable. */
export type UploadBlob = Blob & { name?: string; lastModified?: number };

export type UploadRequest = {
  /** The bytes; absent for a URL upload. */
  file?: UploadBlob | null;
  /** A URL upload: the browser downloads this first, then uploads the bytes. */
  url?: UrlInfo | null;
  /** Overrides the file's own name. */
  filename?: string;
  method: UploadMethod;
  options: ShareOptions;
  /** Encrypt the file end to end in this browser first (docs/E2E.md). */
  encrypt?: boolean;
  onProgress?: (p: UploadProgress) => void;
  signal?: AbortSignal;
  /** Idle timeout of a transfer; defaults to RAW_UPLOAD_TIMEOUT_MS. */
  idleTimeoutMs?: number;
  /** Files above this size use multipart in a URL upload; defaults to multipartThreshold(). */
  multipartThreshold?: number;
};

/** The presign response (docs/PRODUCT.md §3.11). */
export type PresignResult = {
  upload_url: string;
  file_id: string;
  storage_path: string;
  s3_url: string;
  slug: string | null;
  provider_type: string;
  contentType: string;
};

/** The abort reason that stops an upload but keeps it resumable (leaving the page). */
export const PAUSE_REASON = "cubby-upload-paused";
