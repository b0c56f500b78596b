/**
 * Backup and restore through the screen (/admin/backup): download a backup, change the data,
 * restore the file in overwrite mode and see both the results and the restored data; refused
 * files show why; merge mode lists what it skipped. Each test runs on a server of its own,
 * because a restore replaces data that other specs rely on.
 */
import type { Browser } from "@playwright/test";
import { expect, loginAdmin, test, type TestServer } from "./fixtures.ts";
import { BackupPage } from "./pages/backup_page.ts";
import { TextManagementPage } from "./pages/text_management_page.ts";
import { callAdminApi, newAdminPage } from "./pages/test_data.ts";

const createPaste = (server: TestServer, token: string, slug: string, content: string) =>
  callAdminApi(server, token, "/paste", {
    method: "POST",
    body: JSON.stringify({ slug, content }),
  });

/** A logged-in admin page on `server`, in English unless told otherwise. */
function adminPage(
  browser: Browser,
  server: TestServer,
  token: string,
  opts: { locale?: string; viewport?: { width: number; height: number } } = {},
) {
  return newAdminPage(browser, token, { baseURL: server.url, acceptDownloads: true, ...opts });
}

test(
  "download a backup, change the data, restore it through the screen",
  async ({ browser, isolatedServer }, testInfo) => {
    const server = isolatedServer;
    const token = await loginAdmin(server);
    await createPaste(server, token, "keep-me", "the original words");
    const gone = await createPaste(server, token, "gone-later", "deleted after the backup");
    await callAdminApi(server, token, "/admin/settings/group/4", {
      method: "PUT",
      body: JSON.stringify({ site_title: "Backed-up title" }),
    });

    const { context, page } = await adminPage(browser, server, token);
    try {
      const backup = new BackupPage(page);
      await backup.goto();

      // Modules: none chosen is refused; a dependency is added and shown.
      await expect(backup.selectAll).toBeChecked();
      await backup.selectAll.uncheck();
      await backup.downloadButton.click();
      await expect(backup.createError).toHaveText("Choose at least one module");
      await backup.module("File management").check();
      await expect(backup.module("S3 storage config")).toBeChecked();
      await expect(backup.module("S3 storage config")).toBeDisabled();
      await expect(backup.createPanel.getByText("Included because File management needs it."))
        .toBeVisible();
      await backup.selectAll.check();

      const download = await backup.download();
      expect(download.suggestedFilename()).toMatch(/^cubby-backup-\d{8}-\d{6}\.json$/);
      const file = testInfo.outputPath(download.suggestedFilename());
      await download.saveAs(file);
      await expect(page.getByText(`Saved ${download.suggestedFilename()}`)).toBeVisible();

      // The data changes after the backup.
      const keep = (await callAdminApi(server, token, "/pastes?limit=100")).items
        .find((p: { slug: string }) => p.slug === "keep-me");
      await callAdminApi(server, token, `/pastes/${keep.id}`, {
        method: "PUT",
        body: JSON.stringify({ content: "edited after the backup" }),
      });
      await callAdminApi(server, token, "/pastes/batch-delete", {
        method: "DELETE",
        body: JSON.stringify({ ids: [gone.id] }),
      });
      await createPaste(server, token, "new-after-backup", "not in the backup");
      await callAdminApi(server, token, "/admin/settings/group/4", {
        method: "PUT",
        body: JSON.stringify({ site_title: "Changed title" }),
      });

      // Choose the file: its metadata shows before anything changes.
      await backup.chooseFile(file);
      await expect(backup.info).toContainText("Cubby backup");
      await expect(backup.info).toContainText("Full");
      await expect(backup.infoCount("Text management")).toHaveText("2");
      await expect(backup.infoCount("System settings")).not.toHaveText("0");

      await backup.mode("Overwrite").check();
      await backup.restoreButton.click();
      await expect(backup.confirmDialog).toContainText("Text management");
      await backup.confirmDialog.getByRole("button", { name: "Overwrite" }).click();

      await expect(backup.report).toBeVisible({ timeout: 30_000 });
      await expect(backup.reportRow("Text management")).toHaveText(["2", "0", "2"]);
      await expect(page.getByText("Restore finished")).toBeVisible();

      // The restored data, as a visitor and as the admin sees it.
      await page.goto("/paste/keep-me");
      await expect(page.getByText("the original words")).toBeVisible();
      await page.goto("/paste/gone-later");
      await expect(page.getByText("deleted after the backup")).toBeVisible();
      const missing = await fetch(`${server.url}/api/raw/new-after-backup`);
      expect(missing.status).toBe(404);
      await missing.body?.cancel();
      const texts = new TextManagementPage(page);
      await texts.goto();
      await expect(texts.row("keep-me")).toBeVisible();
      await expect(texts.row("gone-later")).toBeVisible();
      await expect(texts.rows()).toHaveCount(2);
      const site = await (await fetch(`${server.url}/api/public/site-config`)).json();
      expect(site.data.site_title).toBe("Backed-up title");
    } finally {
      await context.close();
    }
  },
);

test("refused files say why; merge lists what it skipped", async ({ browser, isolatedServer }) => {
  const server = isolatedServer;
  const token = await loginAdmin(server);
  await createPaste(server, token, "merge-me", "already here");
  const res = await fetch(`${server.url}/api/admin/backup/create?modules=text_management`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const text = await res.text();

  const { context, page } = await adminPage(browser, server, token);
  try {
    const backup = new BackupPage(page);
    await backup.goto();

    const tampered = JSON.parse(text);
    tampered.data.text_management[0].content = "tampered";
    await backup.chooseFile({ name: "tampered.json", text: JSON.stringify(tampered) });
    await expect(backup.restoreError).toHaveText(
      "Backup checksum mismatch: the file was changed or is damaged",
    );
    await expect(backup.restoreButton).toBeDisabled();

    await backup.chooseFile({ name: "broken.json", text: text.slice(0, 100) });
    await expect(backup.restoreError).toHaveText(
      "Could not parse the backup file: it is not valid JSON",
    );

    await backup.chooseFile({ name: "backup.json", text });
    await expect(backup.info).toContainText("Partial");
    await expect(backup.restoreError).toBeHidden();
    await backup.mode("Merge").check();
    await backup.restoreButton.click();
    await expect(backup.reportRow("Text management")).toHaveText(["0", "1", "0"]);
    await backup.report.getByText("1 record skipped").click();
    await expect(backup.report).toContainText("merge-me · a record with this id exists");
  } finally {
    await context.close();
  }
});

test("the backup screen fits 360 px and speaks Chinese", async ({ browser, isolatedServer }) => {
  const token = await loginAdmin(isolatedServer);
  const { context, page } = await adminPage(browser, isolatedServer, token, {
    locale: "zh-CN",
    viewport: { width: 360, height: 740 },
  });
  try {
    await page.goto("/admin/backup");
    await expect(page.getByRole("heading", { level: 1, name: "数据备份" })).toBeVisible();
    await expect(page.getByRole("button", { name: "下载备份" })).toBeVisible();
    await expect(page.getByLabel("备份文件")).toBeVisible();
    const overflow = await page.evaluate(() =>
      document.documentElement.scrollWidth - document.documentElement.clientWidth
    );
    expect(overflow).toBeLessThanOrEqual(0);
  } finally {
    await context.close();
  }
});
