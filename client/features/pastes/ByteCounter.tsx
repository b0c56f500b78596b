/** "1.2 KB / 10.00 MB": the size of the content against the 10 MB limit (docs/PRODUCT.md §5.2). */
import { useTranslation } from "react-i18next";
import { MAX_PASTE_BYTES } from "../../../shared/constants.ts";
import { formatBytes } from "../../lib/format.ts";

export function ByteCounter({ bytes, id }: { bytes: number; id?: string }) {
  const { t } = useTranslation();
  const over = bytes > MAX_PASTE_BYTES;
  return (
    <span id={id} className={`paste-bytes${over ? " paste-bytes-over" : ""}`}>
      {t("home.editor.size", { size: formatBytes(bytes), max: formatBytes(MAX_PASTE_BYTES) })}
    </span>
  );
}
