/** Which React builds the server process has loaded, read from Node's CommonJS module cache. */
import Module from "node:module";

/** The React build kind in use: one kind, "mixed" when both are loaded, "none" before React. */
export type ReactBuild = "production" | "development" | "mixed" | "none";

/**
 * Whether this module runs from a bundle (the single binary, or the bundled server that `deno
 * task start` runs): there, its URL is the bundle's, and React is bundled, not in the CommonJS
 * cache. `deno bundle --minify` keeps only React's production builds (tests/bundle_test.ts), so
 * a bundle answers "production", also before React is first imported.
 */
const BUNDLED = !import.meta.url.endsWith("/server/react_build.ts");

/** Reports whether the loaded `react`/`react-dom` CommonJS files are production or development. */
export function loadedReactBuild(): ReactBuild {
  if (BUNDLED) return "production";
  // deno-lint-ignore no-explicit-any
  const files = Object.keys((Module as any)._cache ?? {}).filter((f) =>
    /[\\/]react(-dom)?[\\/]cjs[\\/]/.test(f)
  );
  const prod = files.some((f) => f.endsWith(".production.js"));
  const dev = files.some((f) => f.endsWith(".development.js"));
  return prod && dev ? "mixed" : prod ? "production" : dev ? "development" : "none";
}
