/** Which React builds the server process has loaded, read from Node's CommonJS module cache. */
import Module from "node:module";

/** The React build kind in use: one kind, "mixed" when both are loaded, "none" before React. */
export type ReactBuild = "production" | "development" | "mixed" | "none";

/** Reports whether the loaded `react`/`react-dom` CommonJS files are production or development. */
export function loadedReactBuild(): ReactBuild {
  // deno-lint-ignore no-explicit-any
  const files = Object.keys((Module as any)._cache ?? {}).filter((f) =>
    /[\\/]react(-dom)?[\\/]cjs[\\/]/.test(f)
  );
  const prod = files.some((f) => f.endsWith(".production.js"));
  const dev = files.some((f) => f.endsWith(".development.js"));
  return prod && dev ? "mixed" : prod ? "production" : dev ? "development" : "none";
}
