/** Names for KV keys, for sets and maps of keys (read_groups.ts, commit_groups.ts). */

/** A name for a key part: its type, then its text's length, then the text. */
function partName(part: Deno.KvKeyPart): string {
  let type: string, text: string;
  // KV stores a string as UTF-8, where every lone surrogate becomes U+FFFD: name it that way.
  if (typeof part === "string") [type, text] = ["s", part.toWellFormed()];
  else if (typeof part === "number") {
    [type, text] = ["n", Object.is(part, -0) ? "-0" : String(part)];
  } else if (typeof part === "bigint") [type, text] = ["b", String(part)];
  else if (typeof part === "boolean") [type, text] = ["t", String(part)];
  else if (part instanceof Uint8Array) {
    [type, text] = ["u", Array.from(part, (b) => b.toString(16).padStart(2, "0")).join("")];
  } else [type, text] = ["y", String(part)]; // not a key part: KV refuses it
  return `${type}${text.length}:${text}`;
}

/** A name for a whole key: two keys have the same name only if KV takes them as the same key. */
export function keyName(key: Deno.KvKey): string {
  let name = "";
  for (const part of key) name += partName(part);
  return name;
}
