/**
 * The browser's i18next holds only the languages it has loaded, with the same texts as the
 * server's instance of every language (mod.ts).
 */
import assert from "node:assert/strict";
import { ensureLanguage, loadI18n, registeredI18n } from "./browser.ts";

const KEYS = ["common.appName", "common.loading", "errors.not_found", "nav.home"];

Deno.test("nothing is registered before a language's module is evaluated", () => {
  assert.equal(registeredI18n("zh-CN"), null);
  assert.equal(registeredI18n("en-US"), null);
});

Deno.test("a loaded page language has the server's texts; the other loads on demand", async () => {
  const page = await loadI18n("en-US");
  assert.equal(page.hasResourceBundle("zh-CN", "translation"), false);
  assert.ok(registeredI18n("en-US"), "evaluating the module registered its files");
  const { createI18n } = await import("./mod.ts");
  const full = { "en-US": createI18n("en-US"), "zh-CN": createI18n("zh-CN") };
  for (const key of KEYS) {
    assert.ok(full["en-US"].exists(key), key);
    assert.equal(page.t(key), full["en-US"].t(key), key);
  }
  await ensureLanguage(page, "zh-CN");
  await page.changeLanguage("zh-CN");
  for (const key of KEYS) assert.equal(page.t(key), full["zh-CN"].t(key), key);
});
