/**
 * The data-format gate for rolling upgrades. Instances one version apart run side by side on one
 * KV, so a record written by one must be readable by the other. Most changes keep that: records
 * only gain optional fields, and readers ignore fields they do not know. A change an older build
 * cannot read (a new way to store content, a renamed field) raises DATA_FORMAT and
 * READER_FORMAT below, and this gate then keeps older builds from starting on that KV, instead of
 * letting them misread or overwrite what they do not understand.
 *
 * `["meta", "data_format"]` holds the highest format any instance wrote and the lowest format a
 * reader must understand. An instance refuses to start when that is above what it understands,
 * and raises both to its own values when it starts.
 *
 * Formats:
 * 1. the first recorded format;
 * 2. a small paste's text inline in its record (`content_text`), not in chunks;
 * 3. pastes and files carry list indexes (search postings, per-creator totals) that every write
 *    keeps; an older build would write shares without them, which lists would then miss.
 */
import { keys } from "./keys.ts";

/** The newest format this build reads and writes. */
export const DATA_FORMAT = 3;
/** The oldest format a reader must understand to read what this build writes. */
export const READER_FORMAT = 3;

type Stored = { format: number; reader_format: number; written_by: string };

/**
 * Checks that this build can read the KV and records what it writes. Throws with the reason when
 * a newer build wrote records this one cannot read.
 */
export async function checkDataFormat(kv: Deno.Kv, version: string): Promise<void> {
  const key = keys.meta("data_format");
  for (let attempt = 0; attempt < 10; attempt++) {
    const entry = await kv.get<Stored>(key);
    const stored = entry.value;
    if (stored && stored.reader_format > DATA_FORMAT) {
      throw new Error(
        `This KV holds records in data format ${stored.format} (written by Cubby ` +
          `${stored.written_by}), which readers of format ${stored.reader_format} or newer ` +
          `understand; Cubby ${version} reads up to format ${DATA_FORMAT}. Upgrade this instance ` +
          "to the version the others run.",
      );
    }
    const next: Stored = {
      format: Math.max(stored?.format ?? 0, DATA_FORMAT),
      reader_format: Math.max(stored?.reader_format ?? 0, READER_FORMAT),
      written_by: stored && stored.format > DATA_FORMAT ? stored.written_by : version,
    };
    if (
      stored && stored.format === next.format && stored.reader_format === next.reader_format
    ) return;
    if ((await kv.atomic().check(entry).set(key, next).commit()).ok) return;
  }
  throw new Error("The data format record kept changing under this instance");
}
