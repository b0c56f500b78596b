import assert from "node:assert/strict";
import { catalogueFiles } from "./catalogues.ts";
import { resourceFor } from "./mod.ts";
import { LANGUAGES } from "../../shared/constants.ts";

/** Every leaf key of a nested catalogue, as dotted paths, sorted. */
function leafKeys(value: unknown, prefix = ""): string[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [prefix];
  return Object.entries(value as Record<string, unknown>)
    .flatMap(([k, v]) => leafKeys(v, prefix ? `${prefix}.${k}` : k))
    .sort();
}

/** The leaf values of a nested catalogue by dotted path. */
function leaves(value: unknown, prefix = "", out = new Map<string, unknown>()) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    out.set(prefix, value);
    return out;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    leaves(v, prefix ? `${prefix}.${k}` : k, out);
  }
  return out;
}

const placeholders = (s: unknown) =>
  typeof s === "string" ? [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort() : [];

const localesDir = new URL("./locales/", import.meta.url);

Deno.test("every locale file on disk is registered, in both languages", async () => {
  for (const lang of LANGUAGES) {
    const onDisk: string[] = [];
    for await (const e of Deno.readDir(new URL(`${lang}/`, localesDir))) {
      if (e.isFile && e.name.endsWith(".json")) onDisk.push(e.name.slice(0, -5));
    }
    assert.deepEqual(onDisk.sort(), Object.keys(catalogueFiles[lang]).sort(), lang);
  }
});

Deno.test("zh-CN and en-US have exactly the same keys, file by file", () => {
  const [zh, en] = [catalogueFiles["zh-CN"], catalogueFiles["en-US"]];
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  for (const file of Object.keys(zh)) {
    assert.deepEqual(leafKeys(zh[file]), leafKeys(en[file]), `${file}.json`);
  }
});

Deno.test("every text is a non-empty string with the same placeholders in both languages", () => {
  for (const file of Object.keys(catalogueFiles["zh-CN"])) {
    const zh = leaves(catalogueFiles["zh-CN"][file]);
    const en = leaves(catalogueFiles["en-US"][file]);
    for (const [key, zhText] of zh) {
      const enText = en.get(key);
      assert.ok(typeof zhText === "string" && zhText.trim() !== "", `zh-CN ${file}: ${key}`);
      assert.ok(typeof enText === "string" && enText.trim() !== "", `en-US ${file}: ${key}`);
      assert.deepEqual(placeholders(zhText), placeholders(enText), `${file}: ${key}`);
    }
  }
});

Deno.test("no two locale files share a top-level key, and none takes `errors`", () => {
  for (const lang of LANGUAGES) {
    const owner = new Map<string, string>();
    for (const [file, catalogue] of Object.entries(catalogueFiles[lang])) {
      for (const key of Object.keys(catalogue)) {
        assert.notEqual(key, "errors", `${lang}/${file}.json must not define errors`);
        assert.ok(
          !owner.has(key),
          `${lang}: top-level key "${key}" is in both ${owner.get(key)}.json and ${file}.json`,
        );
        owner.set(key, file);
      }
    }
  }
});

Deno.test("the merged resources of both languages match key for key", () => {
  assert.deepEqual(leafKeys(resourceFor("zh-CN")), leafKeys(resourceFor("en-US")));
});
