/**
 * The file view (`/file/{slug}`) and the API upload its specs start from: a file share made
 * with `PUT /api/upload-direct/{name}` as the admin.
 */
import type { Buffer } from "node:buffer";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "../fixtures.ts";
import { PageObject } from "./page_object.ts";

export type Uploaded = { slug: string; filename: string; size: number; mimetype: string };

/** Uploads bytes as a file share and returns what the server made of it. */
export async function uploadFile(
  request: APIRequestContext,
  token: string,
  filename: string,
  body: Buffer,
  query: Record<string, string> = {},
): Promise<Uploaded> {
  const qs = new URLSearchParams(query).toString();
  const res = await request.put(
    `/api/upload-direct/${encodeURIComponent(filename)}${qs ? `?${qs}` : ""}`,
    { headers: { Authorization: `Bearer ${token}` }, data: body },
  );
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data;
}

/** Page object of the file view. */
export class FileViewPage extends PageObject {
  readonly consoleErrors: string[] = [];
  /** The note beside the views of an owner's open, which is not counted. */
  readonly ownViewNote = this.page.getByText("Your own view: not counted");
  /** What a share past its expiry or out of views says (under "Access denied", docs/PRODUCT.md §8). */
  readonly expiredText = this.page.getByText(
    "This file share has passed its expiry time or reached its view limit.",
  );

  constructor(page: Page) {
    super(page);
    page.on("console", (m) => {
      if (m.type() === "error") this.consoleErrors.push(m.text());
    });
    page.on("pageerror", (e) => this.consoleErrors.push(e.message));
  }

  async open(slug: string) {
    const res = await this.page.goto(`/file/${slug}`);
    expect(res?.status()).toBe(200);
  }

  heading() {
    return this.page.getByRole("heading", { level: 1 });
  }

  info() {
    return this.page.locator(".file-facts");
  }

  fact(label: string) {
    return this.info().locator("div").filter({ has: this.page.getByText(label, { exact: true }) })
      .locator("dd");
  }

  content(filename: string) {
    return this.page.getByLabel(`Contents of ${filename}`);
  }

  downloadLink() {
    return this.page.locator(".file-head-actions").getByRole("link", { name: "Download" });
  }

  /** Hydration mismatches are reported by React as console errors (#418/#423/#425). */
  expectNoHydrationErrors() {
    const bad = this.consoleErrors.filter((e) =>
      /hydrat|Minified React error #4(18|19|23|25)/i.test(e)
    );
    expect(bad).toEqual([]);
  }
}
