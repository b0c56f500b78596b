/**
 * Makes the server load React's production builds. `react`, `react/jsx-runtime` and
 * `react-dom/server` are CommonJS entry points that pick `*.production.js` or
 * `*.development.js` from `process.env.NODE_ENV` at the moment they are evaluated, so the
 * variable must be set before any module that imports React runs. main.ts imports this module
 * first, which covers `deno run main.ts`, the tasks, the Docker image and the compiled binary
 * alike. An explicit NODE_ENV (for example `development` in `deno task dev`) is kept.
 */
if (!Deno.env.get("NODE_ENV")) Deno.env.set("NODE_ENV", "production");
