/**
 * Where files come in: drag and drop onto the zone, or the "choose files" button, which opens
 * a labelled multi-file input. (Pasting is handled by the page, anywhere on it.)
 */
import { type DragEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { LineIcon } from "../../components/LineIcon.tsx";

export function DropZone(
  { onFiles, maxSizeText, disabled }: {
    onFiles: (files: File[]) => void;
    /** "100 MB", or null while unknown. */
    maxSizeText: string | null;
    disabled?: boolean;
  },
) {
  const { t } = useTranslation();
  const inputRef = useRef<HTMLInputElement>(null);
  const depth = useRef(0);
  const [over, setOver] = useState(false);

  const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer.types).includes("Files");

  const onDragEnter = (e: DragEvent) => {
    if (!hasFiles(e) || disabled) return;
    e.preventDefault();
    depth.current++;
    setOver(true);
  };
  const onDragOver = (e: DragEvent) => {
    if (!hasFiles(e) || disabled) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setOver(false);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    depth.current = 0;
    setOver(false);
    if (disabled) return;
    const files = Array.from(e.dataTransfer.files);
    if (files.length) onFiles(files);
  };

  return (
    <div
      className={`upload-dropzone${over ? " upload-dropzone-over" : ""}`}
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      onClick={(e) => {
        // A click anywhere on the zone opens the picker (the button is the keyboard way in).
        if (!disabled && e.target === e.currentTarget) inputRef.current?.click();
      }}
    >
      <LineIcon size={40} strokeWidth={1.6} roundJoins className="upload-dropzone-icon">
        <path d="M12 16V4m0 0L7 9m5-5 5 5" />
        <path d="M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" />
      </LineIcon>
      <p className="upload-dropzone-title">
        {over ? t("upload.drop.active") : t("upload.drop.title")}
      </p>
      <p className="upload-dropzone-or muted">{t("upload.drop.or")}</p>
      <button
        type="button"
        className="btn btn-primary"
        onClick={() => inputRef.current?.click()}
        disabled={disabled}
      >
        {t("upload.drop.choose")}
      </button>
      <input
        ref={inputRef}
        id="upload-file-input"
        className="sr-only"
        type="file"
        multiple
        tabIndex={-1}
        aria-label={t("upload.drop.inputLabel")}
        disabled={disabled}
        onChange={(e) => {
          const files = Array.from(e.currentTarget.files ?? []);
          e.currentTarget.value = "";
          if (files.length) onFiles(files);
        }}
      />
      {/* The line is there while the limit loads, so nothing below moves when it arrives. */}
      <p className="upload-dropzone-limit muted" aria-hidden={maxSizeText ? undefined : true}>
        {maxSizeText ? t("upload.maxSize", { size: maxSizeText }) : "\u00a0"}
      </p>
    </div>
  );
}
