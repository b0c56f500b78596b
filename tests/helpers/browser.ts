/**
 * How every browser test launches Chromium: Debian's binary, never a downloaded one, with the
 * flags that keep it quiet and working in containers. Playwright's config and any script that
 * launches a browser itself import these.
 */
import process from "node:process";

/** Debian's Chromium; CUBBY_CHROMIUM points elsewhere for local runs on other systems. */
export const CHROMIUM_PATH = process.env.CUBBY_CHROMIUM || "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** Options for `chromium.launch()` and Playwright's `use.launchOptions`. */
export const CHROMIUM_LAUNCH_OPTIONS = {
  executablePath: CHROMIUM_PATH,
  args: CHROMIUM_ARGS,
  headless: true,
};

/** The message shown when Chromium is missing: how to install it, never a download. */
export const CHROMIUM_MISSING_MESSAGE =
  `Chromium was not found at ${CHROMIUM_PATH}. The browser tests use Debian's Chromium and ` +
  `never download one. Install it with:\n  sudo apt-get update && sudo apt-get install -y chromium\n` +
  `or set CUBBY_CHROMIUM to a Chromium binary.`;
