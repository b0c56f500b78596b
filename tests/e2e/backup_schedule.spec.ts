/**
 * Scheduled backups through the screen: a schedule is set on the backup page (daily at a time,
 * modules, storage, how many to keep), a backup runs and shows as written and checked, and a
 * failed run shows on the dashboard. Each test runs on a server of its own: the schedule is
 * global.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, loginAdmin, test } from "./fixtures.ts";
import { callAdminApi, newAdminPage } from "./pages/test_data.ts";

test("a schedule is set on the backup page, and a backup runs, written and checked", async ({ browser, isolatedServer }) => {
  const server = isolatedServer;
  const token = await loginAdmin(server);
  await callAdminApi(server, token, "/paste", {
    method: "POST",
    body: JSON.stringify({ content: "worth keeping" }),
  });
  const { context, page } = await newAdminPage(browser, token, {
    baseURL: server.url,
    timezoneId: "Asia/Shanghai",
  });
  try {
    await page.goto("/admin/backup");
    const panel = page.getByRole("region", { name: "Scheduled backups" });
    await expect(panel.getByLabel("Time zone")).toHaveValue("Asia/Shanghai");
    await panel.getByLabel("How often").selectOption("weekly");
    await panel.getByLabel("Day").selectOption({ label: "Sunday" });
    await panel.getByLabel("Time", { exact: true }).fill("04:30");
    await panel.getByLabel("Backups kept").fill("2");
    await panel.getByRole("button", { name: "Save schedule" }).click();
    await expect(page.getByText("Backup schedule saved")).toBeVisible();
    await expect(panel).toContainText(/Next backup: Sunday, .* 4:30 AM/);

    const stored = await callAdminApi(server, token, "/admin/backup/schedule");
    expect(stored.schedule).toMatchObject({
      enabled: true,
      frequency: "weekly",
      weekday: 0,
      time: "04:30",
      timezone: "Asia/Shanghai",
      keep: 2,
    });

    await panel.getByRole("button", { name: "Back up now" }).click();
    await expect(page.getByText("Backup written and checked")).toBeVisible({ timeout: 30_000 });
    const run = panel.getByRole("list", { name: "Latest runs" }).getByRole("listitem").first();
    await expect(run).toContainText("Succeeded");
    await expect(run).toContainText(".cubby-backups/cubby-backup-");
    await expect(run).toContainText("Checked: a test restore into a scratch database");
    expect(server.output()).not.toMatch(/scheduled backup(s stopped| tick failed)/);
  } finally {
    await context.close();
  }
});

test("a failed backup shows on the dashboard, in Chinese", async ({ browser, isolatedServer }) => {
  const server = isolatedServer;
  const token = await loginAdmin(server);
  // A storage whose root is a file cannot hold a backup.
  const blocker = join(server.dataDir, "not-a-folder");
  await writeFile(blocker, "x");
  const broken = await callAdminApi(server, token, "/s3-configs", {
    method: "POST",
    body: JSON.stringify({ name: "broken", provider_type: "local", root_dir: blocker }),
  });
  await callAdminApi(server, token, "/admin/backup/schedule", {
    method: "PUT",
    body: JSON.stringify({
      enabled: true,
      frequency: "daily",
      weekday: 1,
      time: "03:00",
      timezone: "UTC",
      modules: ["text_management"],
      storage_config_id: broken.id,
      keep: 3,
    }),
  });
  const res = await fetch(`${server.url}/api/admin/backup/runs`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
  });
  expect((await res.json()).data.status).toBe("failed");

  const { context, page } = await newAdminPage(browser, token, {
    baseURL: server.url,
    locale: "zh-CN",
  });
  try {
    await page.goto("/admin/dashboard");
    const alert = page.locator(".dashboard-backup-alert");
    await expect(alert).toContainText("的定时备份失败。");
    await alert.getByRole("link", { name: "在数据备份页查看运行记录" }).click();
    await expect(page).toHaveURL(/\/admin\/backup$/);
    const run = page.getByRole("list", { name: "最近的运行" }).getByRole("listitem").first();
    await expect(run).toContainText("失败");
  } finally {
    await context.close();
  }
});
