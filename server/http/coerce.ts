/**
 * The one lenient reading every JSON body, query and form goes through before validation.
 * Clients such as CloudPaste's frontend send `"23"` for a size and `null` for "not given".
 * Rather than loosen each schema, the parse is retried with the values zod rejected fixed:
 * - a numeric string where a number is expected becomes that number;
 * - `"true"`/`"false"`/`1`/`0` where a boolean is expected becomes that boolean;
 * - `null` where the schema does not accept null is dropped, so it reads as absent.
 * A schema that accepts null (`remark: null` clears a remark on edits) keeps its meaning,
 * because only rejected values are touched.
 */
import type { z } from "zod";

type Issue = z.core.$ZodIssue;
type Fix = { path: PropertyKey[]; value: unknown; drop: boolean };

const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;
const MAX_ROUNDS = 8;

/** The replacement for a value rejected as `expected`, or null when there is none. */
function fixFor(expected: string, current: unknown): { value: unknown; drop: boolean } | null {
  if (current === null) return { value: undefined, drop: true };
  if ((expected === "number" || expected === "int") && typeof current === "string") {
    return NUMERIC.test(current) ? { value: Number(current), drop: false } : null;
  }
  if (expected === "boolean") {
    if (current === "true" || current === 1 || current === "1") return { value: true, drop: false };
    if (current === "false" || current === 0 || current === "0") {
      return { value: false, drop: false };
    }
  }
  return null;
}

function getAt(root: unknown, path: PropertyKey[]): unknown {
  let cur = root;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** Collects fixes for the rejected values of these issues (union branches included). */
function collectFixes(root: unknown, issues: readonly Issue[], base: PropertyKey[], out: Fix[]) {
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    if (issue.code === "invalid_type") {
      const fix = fixFor(issue.expected, getAt(root, path));
      if (fix) out.push({ path, ...fix });
    } else if (issue.code === "invalid_union") {
      for (const branch of issue.errors) collectFixes(root, branch, path, out);
    }
  }
}

/** A copy of `root` with the fixes applied; null when no fix changes anything. */
function applyFixes(root: unknown, fixes: Fix[]): unknown {
  if (fixes.length === 0) return null;
  const copy = structuredClone(root);
  let changed = false;
  for (const { path, value, drop } of fixes) {
    if (path.length === 0) return null; // the whole body is the wrong type: nothing to fix
    const parent = getAt(copy, path.slice(0, -1));
    if (parent === null || typeof parent !== "object") continue;
    const key = path[path.length - 1];
    const obj = parent as Record<PropertyKey, unknown>;
    if (drop && !Array.isArray(obj)) {
      if (key in obj) {
        delete obj[key];
        changed = true;
      }
    } else if (!drop && obj[key] !== value) {
      obj[key] = value;
      changed = true;
    }
  }
  return changed ? copy : null;
}

/** Parses `value` with `schema`, retrying with rejected numeric strings and nulls fixed. */
export function parseLenient<S extends z.ZodType>(
  schema: S,
  value: unknown,
): z.ZodSafeParseResult<z.infer<S>> {
  let current = value;
  let result = schema.safeParse(current);
  for (let round = 0; !result.success && round < MAX_ROUNDS; round++) {
    const fixes: Fix[] = [];
    collectFixes(current, result.error.issues, [], fixes);
    const next = applyFixes(current, fixes);
    if (next === null) break;
    current = next;
    const retry = schema.safeParse(current);
    if (retry.success) return retry;
    result = retry;
  }
  return result;
}
