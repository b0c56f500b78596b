/** Reading a whole stream into memory under a cap, for bodies small enough to hold at once. */
import { concatBytes } from "./e2e/bytes.ts";

/** Every byte of `stream` in one array; throws `tooLarge()` as soon as it passes `max` bytes. */
export async function readCapped(
  stream: ReadableStream<Uint8Array>,
  max: number,
  tooLarge: () => Error,
): Promise<Uint8Array<ArrayBuffer>> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    if (total > max) throw tooLarge();
    parts.push(chunk);
  }
  return concatBytes(parts);
}
