/**
 * ULIDs (time-ordered ids) for records, with the `ulid` package's encoding. Its own generator
 * calls the crypto RNG once per random character, 16 calls per id; here the random part comes
 * from the pool of server/lib/crypto.ts, each byte used once.
 */
import { ulid as encodeUlid } from "ulid";
import { pooledBytes } from "./crypto.ts";

/** A fraction in [0, 1) from one fresh random byte: b / 256 picks each of 32 characters evenly. */
const pooledFraction = () => pooledBytes(1)[0] / 256;

/** A new ULID: `seedTime` (ms since the epoch; default now), then 80 random bits. */
export function ulid(seedTime?: number): string {
  return encodeUlid(seedTime, pooledFraction);
}
