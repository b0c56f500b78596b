/**
 * Layout stability (CLS ≤ 0.1) on every route, at desktop 1280×800 and mobile 390×844: each
 * page is opened in a fresh context (nothing cached), and its layout shifts are summed by a
 * PerformanceObserver in the page until it has settled (pages/layout_shift.ts).
 */
import { Buffer } from "node:buffer";
import { ADMIN, expect, loginAdmin, sharedServerUrl, test } from "./fixtures.ts";
import {
  asAdmin,
  asVisitor,
  callAdminApi,
  createPaste,
  newAdminPage,
  uniqueSlug,
} from "./pages/test_data.ts";
import { ADMIN_PAGES } from "./pages/admin_layout.ts";
import { recordLayoutShifts, settledLayoutShift } from "./pages/layout_shift.ts";
import { uploadFile } from "./pages/file_view_page.ts";
import { freshMount, putFile, removeTemporaryRoots, tinyPng } from "./pages/mount_data.ts";

test.use({ locale: "en-US" });

const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "mobile", width: 390, height: 844 },
] as const;

let routes: string[] = [];

test.beforeAll(async ({ playwright }) => {
  const token = await loginAdmin({ url: sharedServerUrl() }, ADMIN);
  const request = await playwright.request.newContext({ baseURL: sharedServerUrl() });
  const paste = await createPaste(request, `Bearer ${token}`, {
    content: "# Stable\n\n- [x] measured\n- [ ] settled\n\n```js\nconst a = 1;\n```",
    slug: uniqueSlug("cls"),
  });
  const file = await uploadFile(request, token, "e2e-cls.txt", Buffer.from("stable text\n"));
  const root = await freshMount(request, token, "cls");
  for (let i = 0; i < 12; i++) await putFile(request, token, root, `file-${i}.txt`, "x");
  await putFile(request, token, root, "picture.png", tinyPng(), "image/png");
  await request.dispose();
  routes = [
    "/",
    "/upload",
    "/mount-explorer",
    `/mount-explorer${root}`,
    `/paste/${paste.slug}`,
    `/file/${file.slug}`,
    "/offline",
    ...ADMIN_PAGES,
  ];
});

test.afterAll(removeTemporaryRoots);

for (const size of SIZES) {
  test(`every route keeps CLS at or under 0.1 (${size.name})`, async ({ browser, adminToken }) => {
    test.setTimeout(240_000);
    const viewport = { width: size.width, height: size.height };
    const over: string[] = [];
    const measure = async (page: import("@playwright/test").Page, path: string) => {
      await recordLayoutShifts(page);
      await page.goto(path);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      const { score, shifts } = await settledLayoutShift(page);
      if (score > 0.1) over.push(`${path}: ${score.toFixed(3)}\n    ${shifts.join("\n    ")}`);
    };
    for (const path of routes) {
      await asAdmin(browser, adminToken, async ({ page }) => {
        await measure(page, path);
      }, { viewport });
    }
    await asVisitor(browser, async ({ page }) => {
      await measure(page, "/admin/login");
    }, { viewport });
    expect(over, over.join("\n")).toEqual([]);
  });
}

test("an announcement is in the first paint of Home and Upload: nothing below it moves", async ({ browser, isolatedServer }) => {
  const token = await loginAdmin(isolatedServer);
  await callAdminApi(isolatedServer, token, "/admin/settings/group/4", {
    method: "PUT",
    body: JSON.stringify({
      site_announcement_enabled: true,
      site_announcement_content: [
        "**Maintenance tonight** from 22:00 to 23:00.",
        "Uploads pause for a few minutes; shares stay readable.",
        "The explorer's search index is rebuilt afterwards.",
        "Questions: ask the admin.",
      ].join("\n\n"),
    }),
  });
  for (const path of ["/", "/upload"]) {
    const { context, page } = await newAdminPage(browser, token, {
      baseURL: isolatedServer.url,
      viewport: { width: 1280, height: 800 },
    });
    try {
      await recordLayoutShifts(page);
      await page.goto(path);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      await expect(page.getByRole("region", { name: "Announcement" })).toBeVisible();
      const { score, shifts } = await settledLayoutShift(page);
      expect(score, `${path}: ${shifts.join("; ")}`).toBeLessThanOrEqual(0.1);
    } finally {
      await context.close();
    }
  }
});
