/**
 * Markdown XSS (docs/PRODUCT.md §13.7): shares holding script payloads must render inert, both in
 * the server's markup and in the browser, whichever of the two renders them. A plain share is
 * rendered on the server (jsdom DOMPurify) and hydrated; a view-limited one is fetched and rendered
 * in the browser (window DOMPurify). Every payload is opened by a stranger in a fresh context, and
 * `window.__xss` must stay undefined.
 */
import { expect, test } from "./fixtures.ts";
import { PastePage } from "./pages/paste_page.ts";
import {
  createPaste,
  embeddedPageData,
  newVisitorPage,
  serverRenderedRoot,
  uniqueSlug,
} from "./pages/test_data.ts";

test.use({ locale: "en-US" });

type Payload = {
  name: string;
  markdown: string;
  /** Text of an element to click after opening (the link payload). */
  click?: string;
};

const PAYLOADS: Payload[] = [
  { name: "script element", markdown: "<script>window.__xss=1</script>" },
  { name: "img onerror", markdown: '<img src=x onerror="window.__xss=1">' },
  { name: "javascript: link", markdown: "[x](javascript:window.__xss=1)", click: "x" },
  { name: "svg onload", markdown: '<svg onload="window.__xss=1">' },
  {
    name: "iframe srcdoc",
    markdown: '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
  },
];

/** Elements that must never come out of the sanitiser. */
const FORBIDDEN = "script, iframe, frame, object, embed, svg, math, base, form";

type ContentReport = {
  /** Forbidden elements, as markup. */
  forbidden: string[];
  /** Event handler attributes, as `tag[onx]`. */
  handlers: string[];
  /** `srcdoc`, and attributes holding javascript:, vbscript: or data:text/html URLs. */
  scriptUrls: string[];
};

/**
 * What is inside a rendered content element: forbidden tags, on* attributes, script URLs.
 * Runs in the page (through `locator.evaluate`), so it must not use anything from outside.
 */
function inspectContent(root: Element, forbidden: string): ContentReport {
  const all = Array.from(root.querySelectorAll("*"));
  return {
    forbidden: Array.from(root.querySelectorAll(forbidden)).map((e) => e.outerHTML),
    handlers: all.flatMap((e) =>
      Array.from(e.attributes).filter((a) => /^on/i.test(a.name)).map((a) =>
        `${e.tagName.toLowerCase()}[${a.name}]`
      )
    ),
    scriptUrls: all.flatMap((e) =>
      Array.from(e.attributes)
        .filter((a) =>
          a.name === "srcdoc" || /^\s*(javascript:|vbscript:|data:text\/html)/i.test(a.value)
        )
        .map((a) => `${e.tagName.toLowerCase()}[${a.name}=${a.value}]`)
    ),
  };
}

const CLEAN: ContentReport = { forbidden: [], handlers: [], scriptUrls: [] };

for (const payload of PAYLOADS) {
  for (const renderedBy of ["server", "browser"] as const) {
    test(`${payload.name} stays inert (rendered by the ${renderedBy})`, async ({ browser, request, adminToken }) => {
      const marker = uniqueSlug("marker");
      const markdown = `Marker ${marker}\n\n${payload.markdown}\n\nEnd of ${marker}`;
      const paste = await createPaste(request, `Bearer ${adminToken}`, {
        content: markdown,
        slug: uniqueSlug("xss"),
        // A view limit makes the server send metadata only, so the browser renders it.
        max_views: renderedBy === "browser" ? 100 : 0,
      });

      // The server's document: no payload markup anywhere, nothing executable in the content.
      const res = await request.get(`/paste/${paste.slug}`, {
        headers: { "accept-language": "en-US" },
      });
      expect(res.status()).toBe(200);
      const html = await res.text();
      const root = serverRenderedRoot(html);
      expect(root).not.toContain("__xss");
      expect(root).not.toMatch(/javascript:/i);
      if (payload.markdown.startsWith("<")) expect(html).not.toContain(payload.markdown);
      // The embedded data holds the text as inert JSON (and never breaks out of its script).
      const data = embeddedPageData(html) as { page: { paste: { content: string | null } } };
      expect(data.page.paste.content).toBe(renderedBy === "server" ? markdown : null);

      const visitor = await newVisitorPage(browser);
      try {
        const page = visitor.page;
        const dialogs: string[] = [];
        page.on("dialog", (d) => {
          dialogs.push(d.message());
          void d.dismiss();
        });

        if (renderedBy === "server") {
          // The server's markup on its own, in a page without the app and without a CSP: it
          // must be inert by itself, not only because the CSP blocks inline handlers.
          const probe = await visitor.context.newPage();
          await probe.setContent(root);
          const region = probe.locator('[aria-label="Share content"]');
          await expect(region).toContainText(`Marker ${marker}`);
          await expect.poll(() =>
            region.locator("img").evaluateAll((imgs) =>
              imgs.every((i) => (i as HTMLImageElement).complete)
            )
          ).toBe(true);
          expect(await region.evaluate(inspectContent, FORBIDDEN)).toEqual(CLEAN);
          expect(await probe.evaluate(() => (globalThis as { __xss?: unknown }).__xss))
            .toBeUndefined();
          await probe.close();
        }

        const share = new PastePage(page);
        await share.goto(paste.slug);
        await expect(share.content).toContainText(`Marker ${marker}`);
        await expect(share.content).toContainText(`End of ${marker}`);

        // Let every image finish loading or failing, so an onerror would have fired by now.
        await expect.poll(() =>
          share.content.locator("img").evaluateAll((imgs) =>
            imgs.every((i) => (i as HTMLImageElement).complete)
          )
        ).toBe(true);

        if (payload.click) {
          const before = page.url();
          await share.content.getByText(payload.click, { exact: true }).click();
          await expect(page).toHaveURL(before);
          await expect(share.content).toContainText(`Marker ${marker}`);
        }

        expect(await share.content.evaluate(inspectContent, FORBIDDEN)).toEqual(CLEAN);
        await expect(share.content.locator(FORBIDDEN)).toHaveCount(0);
        expect(await page.evaluate(() => (globalThis as { __xss?: unknown }).__xss))
          .toBeUndefined();
        expect(dialogs).toEqual([]);
        // No check of CSP reports: Chromium reports an inline-handler violation when DOMPurify
        // parses the dirty HTML in its inert DOMParser document, although nothing runs there
        // (cure53/DOMPurify#107). The DOM and window.__xss checks above are what count.
      } finally {
        await visitor.context.close();
      }
    });
  }
}
