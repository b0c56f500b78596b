/**
 * The WebDAV `If` header (RFC 4918 §10.4): lists of conditions on state tokens and ETags,
 * optionally tagged with the resource they apply to. The header holds when any one list
 * holds; a list holds when every condition in it does. The lock tokens it names are the
 * tokens the client submits for lock checks.
 */
import { AppError } from "../errors.ts";

export type IfCondition = { not: boolean; token?: string; etag?: string };
export type IfList = { resource: string | null; conditions: IfCondition[] };

/** What the server knows about a resource when evaluating conditions. */
export type ResourceState = { etag: string | null; tokens: Set<string> };

function bad(): AppError {
  return new AppError("webdav_if_invalid", 400);
}

/** Parses an If header; throws 400 webdav_if_invalid when malformed. */
export function parseIfHeader(value: string): IfList[] {
  const lists: IfList[] = [];
  let i = 0;
  let tag: string | null = null;
  let tagged: boolean | null = null;
  const skip = () => {
    while (i < value.length && /\s/.test(value[i])) i++;
  };
  const until = (end: string) => {
    const j = value.indexOf(end, i);
    if (j < 0) throw bad();
    const out = value.slice(i, j);
    i = j + 1;
    return out;
  };
  for (skip(); i < value.length; skip()) {
    if (value[i] === "<") {
      if (tagged === false) throw bad();
      tagged = true;
      i++;
      tag = until(">");
      skip();
      if (value[i] !== "(") throw bad();
      continue;
    }
    if (value[i] !== "(") throw bad();
    if (tagged === null) tagged = false;
    i++;
    const conditions: IfCondition[] = [];
    for (skip(); value[i] !== ")"; skip()) {
      if (i >= value.length) throw bad();
      let not = false;
      if (/^not\b/i.test(value.slice(i, i + 4)) && /\s|[<[]/.test(value[i + 3] ?? "")) {
        not = true;
        i += 3;
        skip();
      }
      if (value[i] === "<") {
        i++;
        conditions.push({ not, token: until(">") });
      } else if (value[i] === "[") {
        i++;
        conditions.push({ not, etag: until("]").trim() });
      } else throw bad();
    }
    i++;
    if (conditions.length === 0) throw bad();
    lists.push({ resource: tag, conditions });
  }
  if (lists.length === 0) throw bad();
  return lists;
}

/** The lock tokens a client submits: every token named (not negated) in the header. */
export function submittedTokens(lists: IfList[] | null): Set<string> {
  const out = new Set<string>();
  for (const l of lists ?? []) {
    for (const c of l.conditions) if (c.token && !c.not) out.add(c.token);
  }
  return out;
}

function sameEtag(a: string, b: string): boolean {
  return a.replace(/^W\//, "") === b.replace(/^W\//, "");
}

/**
 * True when any list holds. `stateOf` gives the state of the list's resource (its tag, or
 * null for the request target).
 */
export async function evaluateIf(
  lists: IfList[],
  stateOf: (resource: string | null) => Promise<ResourceState>,
): Promise<boolean> {
  for (const list of lists) {
    const state = await stateOf(list.resource);
    const holds = list.conditions.every((c) => {
      const match = c.token !== undefined
        ? state.tokens.has(c.token)
        : state.etag !== null && sameEtag(state.etag, c.etag!);
      return match !== c.not;
    });
    if (holds) return true;
  }
  return false;
}
