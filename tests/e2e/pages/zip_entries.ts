/**
 * Reads a zip's central directory (with Zip64 records, as client-zip writes them) and the
 * stored bytes of each entry, so that tests can check a pack download without trusting the
 * code that made it. Only the "stored" method (0) is extracted; client-zip never compresses.
 */

export type ZipEntry = { name: string; size: number; method: number; data: Uint8Array | null };

const u16 = (b: DataView, o: number) => b.getUint16(o, true);
const u32 = (b: DataView, o: number) => b.getUint32(o, true);
const u64 = (b: DataView, o: number) => Number(b.getBigUint64(o, true));

/** Every entry of a zip; throws when the archive is malformed. */
export function readZipEntries(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (u32(view, i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error("zip: no end of central directory record");
  let count = u16(view, eocd + 10);
  let cdOffset = u32(view, eocd + 16);
  if (count === 0xffff || cdOffset === 0xffffffff) {
    const locator = eocd - 20;
    if (u32(view, locator) !== 0x07064b50) throw new Error("zip: Zip64 locator missing");
    const rec = u64(view, locator + 8);
    if (u32(view, rec) !== 0x06064b50) throw new Error("zip: Zip64 end record missing");
    count = u64(view, rec + 32);
    cdOffset = u64(view, rec + 48);
  }
  const entries: ZipEntry[] = [];
  let at = cdOffset;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  for (let n = 0; n < count; n++) {
    if (u32(view, at) !== 0x02014b50) throw new Error(`zip: bad central header at ${at}`);
    const method = u16(view, at + 10);
    let compressed = u32(view, at + 20);
    let size = u32(view, at + 24);
    const nameLen = u16(view, at + 28);
    const extraLen = u16(view, at + 30);
    const commentLen = u16(view, at + 32);
    let local = u32(view, at + 42);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLen));
    // Zip64 extra field: the 0xFFFFFFFF fields follow in order size, compressed, offset.
    let e = at + 46 + nameLen;
    const end = e + extraLen;
    while (e + 4 <= end) {
      const id = u16(view, e);
      const len = u16(view, e + 2);
      if (id === 0x0001) {
        let p = e + 4;
        if (size === 0xffffffff) (size = u64(view, p), p += 8);
        if (compressed === 0xffffffff) (compressed = u64(view, p), p += 8);
        if (local === 0xffffffff) local = u64(view, p);
      }
      e += 4 + len;
    }
    if (u32(view, local) !== 0x04034b50) throw new Error(`zip: bad local header for ${name}`);
    const start = local + 30 + u16(view, local + 26) + u16(view, local + 28);
    const data = method === 0 ? bytes.slice(start, start + compressed) : null;
    entries.push({ name, size, method, data });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}
