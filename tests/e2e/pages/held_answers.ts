/** Requests that reach the server while their answers wait for the test. */
import type { BrowserContext, Page } from "@playwright/test";

/**
 * Lets requests matching `url` reach the server, but holds their answers back until `release()`.
 * `answered` resolves with the server's first JSON answer once the server has given it.
 */
export async function holdAnswers(target: Page | BrowserContext, url: RegExp) {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let answer: (body: { data: Record<string, unknown> }) => void = () => {};
  const answered = new Promise<{ data: Record<string, unknown> }>((resolve) => (answer = resolve));
  await target.route(url, async (route) => {
    const response = await route.fetch();
    answer(await response.json());
    await held;
    await route.fulfill({ response }).catch(() => {}); // the page may have given up on it
  });
  return { answered, release };
}
