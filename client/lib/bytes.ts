/** Byte counts scaled for people; each screen picks its own rounding and unit names. */

/**
 * Divides `bytes` by 1024 until it is below 1024 or the last of `unitCount` units is reached;
 * answers the scaled value and the index of its unit (0 for bytes).
 */
export function scaleBytes(bytes: number, unitCount: number): { value: number; unit: number } {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < unitCount - 1) {
    value /= 1024;
    unit++;
  }
  return { value, unit };
}
