/** Proves the browser pipeline end to end: real server, built client, Debian's Chromium. */
import { expect, test } from "./fixtures.ts";
import { errorMessage } from "../../shared/errors.ts";

test.use({ locale: "en-US" });

// Hydration mismatches and crashes surface as page errors: none are expected.
const pageErrors: string[] = [];
test.beforeEach(({ page }) => {
  pageErrors.length = 0;
  page.on("pageerror", (err) => pageErrors.push(err.message));
});
test.afterEach(() => {
  expect(pageErrors).toEqual([]);
});

test("the home page loads and the API reports version 0.8.1", async ({ page, request }) => {
  const res = await page.goto("/");
  expect(res?.status()).toBe(200);
  await expect(page).toHaveTitle(/Cubby/);
  await expect(page.locator("#root")).not.toBeEmpty();

  const version = await request.get("/api/version");
  expect(version.status()).toBe(200);
  const body = await version.json();
  expect(body).toMatchObject({ code: 200, success: true, data: { version: "0.8.1" } });
});

test("an unknown paste shows the not-found state", async ({ page }) => {
  const res = await page.goto("/paste/does-not-exist");
  expect(res?.status()).toBe(404);
  const data = await page.locator("#__cubby_data").textContent();
  expect(JSON.parse(data ?? "{}")).toMatchObject({ page: { error: "paste_not_found" } });
  await expect(page.getByRole("heading", { name: errorMessage("paste_not_found", "en-US") }))
    .toBeVisible();
});
