/**
 * Key management: a refusal of the server shows at the field it concerns, in view; a base path
 * is refused for what is really wrong with it; the table fits 1280 px; a new key that may share
 * files comes with a ShareX uploader, a curl line and a Flameshot script, each checked for real.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, sharedServerUrl, test } from "./fixtures.ts";
import { asAdmin, newAdminPage, uniqueSlug } from "./pages/test_data.ts";
import { KeyManagementPage } from "./pages/key_management_page.ts";
import { createApiKey } from "./pages/mount_data.ts";

test("a duplicate key name is shown at the name field, in view, at 1280×720", async ({ browser, request, adminToken }) => {
  const name = uniqueSlug("e2e-dup");
  await createApiKey(request, adminToken, name, { text: true }, "/");
  const { context, page } = await newAdminPage(browser, adminToken, {
    viewport: { width: 1280, height: 720 },
  });
  try {
    const keys = new KeyManagementPage(page);
    await keys.goto();
    await keys.createButton.click();
    await keys.nameInput.fill(name);
    await keys.createSubmit.click();
    await expect(keys.nameInput).toHaveAttribute("aria-invalid", "true");
    await expect(keys.nameInput).toHaveAccessibleDescription("A key with this name already exists");
    await expect(keys.nameInput).toBeFocused();
    await expect(keys.createDialog.getByText("A key with this name already exists"))
      .toBeInViewport();
    // Changing the name clears the mark, and the key is created.
    await keys.nameInput.fill(`${name}-2`);
    await expect(keys.nameInput).not.toHaveAttribute("aria-invalid", "true");
    await keys.createSubmit.click();
    await expect(keys.createdDialog).toBeVisible();
  } finally {
    await context.close();
  }
});

test("a base path of /../etc is refused for its .. segment, in English and in Chinese", async ({ browser, adminToken }) => {
  for (
    const [locale, text] of [
      ["en-US", "The base path must not contain . or .. segments"],
      ["zh-CN", "基础路径中不能包含 . 或 .. 段"],
    ] as const
  ) {
    await asAdmin(browser, adminToken, async ({ page }) => {
      await page.goto("/admin/key-management");
      const english = locale === "en-US";
      await page.getByRole("button", { name: english ? "Create key" : "创建密钥" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel(english ? "Key name" : "密钥名称").fill(uniqueSlug("e2e-path"));
      const basePath = dialog.getByLabel(english ? "Base path" : "基础路径");
      await basePath.fill("/../etc");
      await dialog.getByRole("button", { name: english ? "Create" : "创建", exact: true }).click();
      await expect(basePath).toHaveAttribute("aria-invalid", "true");
      await expect(basePath).toHaveAccessibleDescription(new RegExp(text.replace(/\./g, "\\.")));
    }, { locale });
  }
});

test("at 1280 px the sticky Actions column covers neither Status nor Last used", async ({ browser, request, adminToken }) => {
  // A key with every permission, a long name, an expiry and a last use: the widest row.
  const name = uniqueSlug("e2e-wide-key-with-a-rather-long-name");
  const res = await request.post("/api/admin/api-keys", {
    headers: { authorization: `Bearer ${adminToken}` },
    data: {
      name,
      permissions: {
        text: true,
        file: true,
        mount_view: true,
        mount_upload: true,
        mount_copy: true,
        mount_rename: true,
        mount_delete: true,
        webdav_read: true,
      },
      basic_path: "/projects/customer-archive/2025",
      expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      is_guest: 1,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const key = (await res.json()).data.key;
  expect((await request.get("/api/test/api-key", { headers: { authorization: `ApiKey ${key}` } }))
    .status()).toBe(200);
  for (
    const [locale, status, lastUsed] of [
      ["en-US", "Status", "Last used"],
      ["zh-CN", "状态", "最后使用"],
    ] as const
  ) {
    const { context, page } = await newAdminPage(browser, adminToken, {
      locale,
      viewport: { width: 1280, height: 800 },
    });
    try {
      await page.goto("/admin/key-management");
      const row = page.getByRole("row").filter({
        has: page.getByRole("rowheader", { name, exact: true }),
      });
      await expect(row).toBeVisible();
      const cells = row.locator("td");
      const actions = row.locator("td.cell-actions");
      const box = async (label: string) =>
        (await cells.and(page.locator(`[data-label="${label}"]`)).boundingBox())!;
      const act = (await actions.boundingBox())!;
      for (const label of [status, lastUsed]) {
        const cell = await box(label);
        expect(cell.x + cell.width, `${locale} ${label} ends before Actions`).toBeLessThanOrEqual(
          act.x + 1,
        );
      }
      // And the table needs no sideways scroll at this width.
      const wrap = page.getByRole("region", { name: locale === "en-US" ? "API keys" : "API 密钥" });
      const overflow = await wrap.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(overflow, `${locale} overflow`).toBeLessThanOrEqual(0);
    } finally {
      await context.close();
    }
  }
});

test("a new key with file sharing offers a ShareX uploader, a curl line and a Flameshot script that work", async ({ browser, request, adminToken }) => {
  const name = uniqueSlug("e2e-sharex");
  await asAdmin(browser, adminToken, async ({ page }) => {
    const keys = new KeyManagementPage(page);
    await keys.goto();
    await keys.createButton.click();
    await keys.nameInput.fill(name);
    await keys.permission("Files").check();
    await keys.createSubmit.click();
    const uploaders = keys.createdDialog.getByRole("region", { name: "Upload with this key" });
    await expect(uploaders).toBeVisible();
    const key = await keys.createdKey.inputValue();

    // The .sxcu, used the way ShareX uses it: PUT the bytes, take the reply as the URL.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      uploaders.getByRole("button", { name: "Download ShareX uploader (.sxcu)" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`cubby-${name}.sxcu`);
    const sxcu = JSON.parse(await readFile(await download.path(), "utf8"));
    expect(sxcu.RequestMethod).toBe("PUT");
    expect(sxcu.Body).toBe("Binary");
    expect(sxcu.URL).toBe("{response}");
    const res = await fetch(sxcu.RequestURL.replace("{filename}", "shot.png"), {
      method: sxcu.RequestMethod,
      headers: sxcu.Headers,
      body: new Uint8Array([137, 80, 78, 71]),
    });
    expect(res.status).toBe(201);
    const shared = (await res.text()).trim();
    expect(shared).toMatch(new RegExp(`^${sharedServerUrl()}/file/\\w+$`));
    const slug = shared.split("/").pop();
    expect((await request.get(`/api/public/files/${slug}`)).status()).toBe(200);

    // The curl line, run for real with a file in place of FILE.
    const curl = await uploaders.getByLabel(/^curl/).inputValue();
    expect(curl).toContain(`ApiKey ${key}`);
    const dir = await mkdtemp(join(tmpdir(), "cubby-curl-"));
    try {
      const file = join(dir, "notes.txt");
      await writeFile(file, "sent by curl");
      const out = execFileSync("sh", ["-c", curl.replace("'FILE'", `'${file}'`)], {
        encoding: "utf8",
      }).trim();
      expect(out).toMatch(new RegExp(`^${sharedServerUrl()}/file/\\w+$`));
      const raw = await request.get(`/api/file-download/${out.split("/").pop()}`);
      expect(await raw.text()).toBe("sent by curl");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const script = await uploaders.getByLabel(/^Flameshot/).inputValue();
    expect(script).toContain("flameshot gui --raw | curl -sS -T -");
    expect(script).toContain(`ApiKey ${key}`);
  }, { acceptDownloads: true });
});

test("a key without file sharing is created without uploaders", async ({ browser, adminToken }) => {
  await asAdmin(browser, adminToken, async ({ page }) => {
    const keys = new KeyManagementPage(page);
    await keys.goto();
    await keys.createButton.click();
    await keys.nameInput.fill(uniqueSlug("e2e-text-key"));
    await keys.createSubmit.click();
    await expect(keys.createdDialog).toBeVisible();
    await expect(keys.createdDialog.getByText("Upload with this key")).toHaveCount(0);
  });
});
