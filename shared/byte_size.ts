/** A byte count as people read it in messages from either side: "100 MB", "1.5 GB", "512 B". */

const UNITS = ["B", "KB", "MB", "GB", "TB", "PB"];

/** `bytes` in binary units (1 KB = 1024 B), with at most two decimals below 10 and one above. */
export function formatByteSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "–";
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 ? 0 : value < 10 ? 2 : 1;
  return `${Number(value.toFixed(digits))} ${UNITS[unit]}`;
}
