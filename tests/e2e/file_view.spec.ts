/**
 * The file view (`/file/{slug}`): server-rendered info, hydration without mismatches, the
 * previews (image, PDF, video, Markdown, Office links), the password prompt, a byte-exact
 * download, and fresh links after the owner changes the password.
 * Files are uploaded through the API (`PUT /api/upload-direct/{name}`) as the admin; every
 * visit happens in a fresh, anonymous browser context.
 */
import { Buffer } from "node:buffer";
import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { downloadBytes, newContext } from "./pages/test_data.ts";
import { FileViewPage, type Uploaded, uploadFile as upload } from "./pages/file_view_page.ts";

test.use({ locale: "en-US" });

/** A minimal one-page PDF with correct cross-reference offsets. */
function minimalPdf(text: string): Buffer {
  const content = `BT /F1 24 Tf 40 100 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R " +
    "/Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets = objects.map((o, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** A PNG made by screenshotting a coloured box. */
async function makePng(page: Page): Promise<Buffer> {
  await page.setViewportSize({ width: 240, height: 160 });
  await page.setContent(
    `<body style="margin:0"><div style="width:240px;height:160px;background:#2563eb"></div>`,
  );
  return await page.screenshot();
}

/** A short WebM clip recorded from a canvas with MediaRecorder, in the browser itself. */
async function makeWebm(page: Page): Promise<Buffer> {
  await page.setContent("<body></body>");
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement("canvas");
    canvas.width = 160;
    canvas.height = 120;
    document.body.append(canvas);
    const ctx = canvas.getContext("2d")!;
    const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: "video/webm" });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => chunks.push(e.data);
    recorder.start(100);
    const started = performance.now();
    await new Promise<void>((done) => {
      const draw = () => {
        const t = performance.now() - started;
        ctx.fillStyle = `hsl(${t % 360} 70% 50%)`;
        ctx.fillRect(0, 0, 160, 120);
        if (t < 800) requestAnimationFrame(draw);
        else done();
      };
      draw();
    });
    const stopped = new Promise((done) => (recorder.onstop = done));
    recorder.stop();
    await stopped;
    const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
    let s = "";
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s);
  });
  return Buffer.from(base64, "base64");
}

/** Opens `/file/{slug}` in a fresh visitor context that accepts downloads. */
async function openFileView(browser: Browser, slug: string) {
  const context = await browser.newContext({ acceptDownloads: true });
  const view = new FileViewPage(await context.newPage());
  await view.open(slug);
  return { context, view };
}

test.describe("file view", () => {
  test("shows the info and an image preview, and downloads the exact bytes", async ({ browser, request, adminToken }) => {
    const maker = await browser.newPage();
    const png = await makePng(maker);
    await maker.close();
    const file = await upload(request, adminToken, "e2e-picture.png", png, {
      remark: "An e2e picture",
      max_views: "10",
    });

    const { context, view } = await openFileView(browser, file.slug);
    await expect(view.heading()).toHaveText("e2e-picture.png");
    await expect(view.fact("Type")).toHaveText("image/png");
    await expect(view.fact("Remark")).toHaveText("An e2e picture");
    await expect(view.fact("Size")).not.toBeEmpty();
    // Opening counted exactly one view; server rendering counted none.
    await expect(view.fact("Views")).toHaveText("1 / 10");

    const image = view.page.getByRole("img", { name: "e2e-picture.png" });
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);

    const [download] = await Promise.all([
      view.page.waitForEvent("download"),
      view.downloadLink().click(),
    ]);
    expect(download.suggestedFilename()).toBe("e2e-picture.png");
    const path = await download.path();
    const { readFile } = await import("node:fs/promises");
    expect(Buffer.compare(await readFile(path), png)).toBe(0);
    // The preview and the download used the signed links: still one view.
    const meta = await request.get(`/api/files?search=${file.slug}`, {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    const item = (await meta.json()).data.items.find((i: Uploaded) => i.slug === file.slug);
    expect(item.views).toBe(1);
    view.expectNoHydrationErrors();
    await context.close();
  });

  test("renders PDF, video and Markdown previews", async ({ browser, request, adminToken }) => {
    const maker = await browser.newPage();
    const webm = await makeWebm(maker);
    await maker.close();
    const pdf = await upload(request, adminToken, "e2e-doc.pdf", minimalPdf("Hello e2e"));
    const video = await upload(request, adminToken, "e2e-clip.webm", webm);
    const md = await upload(
      request,
      adminToken,
      "e2e-notes.md",
      Buffer.from("# Notes heading\n\nSome **bold** text.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"),
    );
    expect(md.mimetype).toBe("text/markdown");

    const context = await browser.newContext();
    const view = new FileViewPage(await context.newPage());

    // PDF: an iframe on the signed preview link, shown by Chromium's PDF viewer.
    const pdfResponse = view.page.waitForResponse((r) => r.url().includes("/api/file-view/"));
    await view.open(pdf.slug);
    const frame = view.page.locator("iframe.file-frame-pdf");
    await expect(frame).toHaveAttribute("title", "Contents of e2e-doc.pdf");
    const res = await pdfResponse;
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("application/pdf");
    await expect.poll(() =>
      view.page.frames().some((f) => f.url().startsWith("chrome-extension://"))
    ).toBe(true);

    // Video: the element loads the clip's metadata through Range requests.
    await view.open(video.slug);
    const player = view.page.getByLabel("Contents of e2e-clip.webm");
    await expect(player).toBeVisible();
    await expect.poll(() =>
      player.evaluate((v: HTMLVideoElement) => v.readyState >= 1 && v.videoWidth > 0)
    ).toBe(true);

    // Markdown: rendered, with a source toggle.
    await view.open(md.slug);
    const rendered = view.content("e2e-notes.md");
    await expect(rendered.getByRole("heading", { name: "Notes heading" })).toBeVisible();
    await expect(rendered.locator("strong")).toHaveText("bold");
    await expect(rendered.getByRole("table")).toBeVisible();
    await view.page.getByRole("button", { name: "Source" }).click();
    await expect(view.content("e2e-notes.md")).toContainText("# Notes heading");

    view.expectNoHydrationErrors();
    await context.close();
  });

  test("a protected file needs its password", async ({ browser, request, adminToken }) => {
    const secret = Buffer.from("the secret text\n");
    const file = await upload(request, adminToken, "e2e-secret.txt", secret, {
      password: "open-sesame",
    });

    const { context, view } = await openFileView(browser, file.slug);
    await expect(view.heading()).toHaveText("e2e-secret.txt");
    await expect(view.fact("Access")).toHaveText("Password protected");
    // Server rendering never counts a view, nor does showing the prompt.
    await expect(view.fact("Views")).toHaveText("0 (unlimited)");
    await expect(view.downloadLink()).toHaveCount(0);
    await expect(view.content("e2e-secret.txt")).toHaveCount(0);

    const password = view.page.getByLabel("Password", { exact: true });
    await password.fill("not-it");
    await view.page.getByRole("button", { name: "Open file" }).click();
    await expect(view.page.getByRole("alert")).toHaveText("Wrong password, please retry");

    await password.fill("open-sesame");
    await view.page.getByRole("button", { name: "Open file" }).click();
    await expect(view.content("e2e-secret.txt")).toHaveText("the secret text");
    await expect(view.fact("Views")).toHaveText("1 (unlimited)");

    expect(Buffer.compare(await downloadBytes(view.downloadLink()), secret)).toBe(0);
    view.expectNoHydrationErrors();
    await context.close();
  });

  test("an Office preview reuses the open's view token and counts no second view", async ({ browser, request, adminToken }) => {
    const file = await upload(request, adminToken, "e2e-report.docx", Buffer.from("PK e2e"), {
      max_views: "5",
    });
    const context = await browser.newContext();
    // The online viewers are not reachable from tests; only the link they would get matters.
    await context.route(/officeapps\.live\.com|docs\.google\.com/, (route) => route.abort());
    const view = new FileViewPage(await context.newPage());
    await view.open(file.slug);
    await expect(view.fact("Views")).toHaveText("1 / 5");
    const frame = view.page.locator("iframe.file-frame-office");
    await expect(frame).toHaveAttribute("src", /officeapps\.live\.com/);
    const viewerSrc = new URL((await frame.getAttribute("src"))!).searchParams.get("src")!;
    const href = (await view.downloadLink().getAttribute("href"))!;
    const tokenOf = (url: string) => new URL(url, "http://x").searchParams.get("t");
    expect(tokenOf(viewerSrc)).toBeTruthy();
    expect(tokenOf(viewerSrc)).toBe(tokenOf(href));
    const meta = await request.get(`/api/files?search=${file.slug}`, {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    const item = (await meta.json()).data.items.find((i: Uploaded) => i.slug === file.slug);
    expect(item.views).toBe(1);
    await context.close();
  });

  test("after the owner sets a password, the page opens the share again for working links", async ({ browser, request, adminToken }) => {
    const file = await upload(request, adminToken, "e2e-owned.txt", Buffer.from("owned text"), {
      max_views: "10",
    });
    const context = await newContext(browser, { adminToken });
    const view = new FileViewPage(await context.newPage());
    await view.open(file.slug);
    await expect(view.content("e2e-owned.txt")).toHaveText("owned text");
    // The owner's own views are not counted.
    await expect(view.fact("Views")).toHaveText("0 / 10Your own view: not counted");
    const before = (await view.downloadLink().getAttribute("href"))!;

    await view.page.getByRole("button", { name: "Edit" }).click();
    await view.page.getByLabel("New password").fill("owner-secret");
    await view.page.getByRole("button", { name: "Save" }).click();
    await expect(view.page.getByText("File share saved")).toBeVisible();
    // The new password retired the old links' token; the page opened the share again.
    await expect(view.fact("Views")).toHaveText("0 / 10Your own view: not counted");
    await expect(view.fact("Access")).toHaveText("Password protected");
    const after = (await view.downloadLink().getAttribute("href"))!;
    expect(after).not.toBe(before);
    expect((await request.get(before)).status()).toBe(403); // password_required
    const fresh = await request.get(after);
    expect(fresh.status()).toBe(200);
    expect(await fresh.text()).toBe("owned text");
    await context.close();
  });

  test("an unknown file shows not found", async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const res = await page.goto("/file/no-such-file-here");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("File not found");
    await context.close();
  });
});
