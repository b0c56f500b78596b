/**
 * An entry's picture: a small inline SVG by kind (folder, mount, image, video, audio, text,
 * archive, other), or for images in the grid and gallery the image itself, loaded from a signed
 * link once it scrolls near the viewport.
 */
import { previewTypeOf } from "../../../shared/preview_types.ts";
import { usePreviewLists } from "../../app/site_config.ts";
import type { FsEntry } from "./explorer_api.ts";
import { useVisibleFileLink } from "./use_file_link.ts";

export type EntryKind =
  | "folder"
  | "mount"
  | "image"
  | "video"
  | "audio"
  | "text"
  | "archive"
  | "file";

const ARCHIVES = /\.(zip|rar|7z|tar|gz|tgz|bz2|xz|zst)$/i;

/** The kind an entry is drawn as. */
export function useEntryKind(entry: FsEntry): EntryKind {
  const lists = usePreviewLists();
  if (entry.type === "directory") return entry.mount_id ? "mount" : "folder";
  const kind = previewTypeOf(entry.name, entry.mimetype ?? "", lists);
  if (kind === "image" || kind === "video" || kind === "audio") return kind;
  if (kind === "text" || kind === "markdown" || kind === "html") return "text";
  if (ARCHIVES.test(entry.name)) return "archive";
  return "file";
}

const PATHS: Record<EntryKind, string> = {
  folder:
    "M3 6.5A1.5 1.5 0 0 1 4.5 5h4.4l1.8 2h8.8A1.5 1.5 0 0 1 21 8.5v9A1.5 1.5 0 0 1 19.5 19h-15A1.5 1.5 0 0 1 3 17.5z",
  mount:
    "M4 5h16a1 1 0 0 1 1 1v5H3V6a1 1 0 0 1 1-1zm-1 8h18v5a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1zm14 2.5a1 1 0 1 0 0 .01z",
  image:
    "M5 4h14a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1zm1 13h12l-4-5-3 3.5-2-2.5z",
  video:
    "M4 6h12a1 1 0 0 1 1 1v2.5l4-2.5v10l-4-2.5V17a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1z",
  audio: "M9 18a3 3 0 1 1-2-2.83V5l12-2v12a3 3 0 1 1-2-2.83V6.4L9 7.7z",
  text:
    "M6 3h8l5 5v12a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zm2 9v1.5h8V12zm0 3.5V17h6v-1.5z",
  archive:
    "M6 3h8l5 5v12a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zm3 1v2h2V4zm0 3v2h2V7zm0 3v2h2v-2z",
  file: "M6 3h8l5 5v12a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zm7 1.5V9h4.5z",
};

/** The SVG of a kind (decorative: the entry's name labels it). */
export function KindIcon({ kind, size = 24 }: { kind: EntryKind; size?: number }) {
  return (
    <svg
      className={`entry-icon entry-icon-${kind}`}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[kind]} fill="currentColor" />
    </svg>
  );
}

/** A thumbnail: the image for image files (lazy, signed link), else the kind's icon. */
export function EntryThumb({ entry, size = 48 }: { entry: FsEntry; size?: number }) {
  const kind = useEntryKind(entry);
  const { ref, url, failed } = useVisibleFileLink(kind === "image" ? entry.path : null);
  if (kind !== "image" || failed) {
    return (
      <span className="entry-thumb entry-thumb-icon">
        <KindIcon kind={kind} size={size} />
      </span>
    );
  }
  return (
    <span
      className="entry-thumb"
      ref={(el) => {
        ref.current = el;
      }}
    >
      {url
        ? <img src={url} alt="" loading="lazy" decoding="async" draggable={false} />
        : <KindIcon kind="image" size={size} />}
    </span>
  );
}
