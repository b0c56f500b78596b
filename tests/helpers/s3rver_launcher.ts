/**
 * The Node script that runs s3rver for tests, shared by tests/helpers/s3rver.ts (Deno) and
 * tests/e2e/s3rver_fixture.ts (Playwright). Arguments: the s3rver package directory, the data
 * directory, the bucket and, optionally, a CORS configuration XML file for the bucket. It prints
 * `{"port":N}` once listening and exits when its stdin closes, so no server outlives its parent.
 *
 * Plain text only, no Deno API and no `import.meta`: Playwright loads this module too.
 */

/** The launcher's source, written to a temporary `.mjs` file and run with `node`. */
export const S3RVER_LAUNCHER = `
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
const [s3rverDir, directory, bucket, corsFile] = process.argv.slice(2);
const require = createRequire(s3rverDir + "/package.json");
const S3rver = require(s3rverDir);
const server = new S3rver({
  address: "127.0.0.1",
  port: 0,
  directory,
  silent: true,
  configureBuckets: [{ name: bucket, configs: corsFile ? [readFileSync(corsFile)] : [] }],
});
const { port } = await server.run();
process.stdout.write(JSON.stringify({ port }) + "\\n");
process.stdin.on("data", () => {});
process.stdin.on("end", () => server.close().finally(() => process.exit(0)));
`;
