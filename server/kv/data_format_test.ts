import assert from "node:assert/strict";
import { join } from "node:path";
import { checkDataFormat, DATA_FORMAT, READER_FORMAT } from "./data_format.ts";

Deno.test("the data-format gate records this build's format and stops builds too old to read the KV", async () => {
  const dir = await Deno.makeTempDir();
  const kv = await Deno.openKv(join(dir, "kv"));
  try {
    await checkDataFormat(kv, "0.8.1");
    assert.deepEqual((await kv.get(["meta", "data_format"])).value, {
      format: DATA_FORMAT,
      reader_format: READER_FORMAT,
      written_by: "0.8.1",
    });
    await checkDataFormat(kv, "0.8.1"); // again: nothing to change

    // A newer build wrote a format this one reads (its readers need no more than ours).
    await kv.set(["meta", "data_format"], {
      format: DATA_FORMAT + 1,
      reader_format: READER_FORMAT,
      written_by: "0.9.0",
    });
    await checkDataFormat(kv, "0.8.1");
    // One that older builds cannot read keeps this one from starting, and says why.
    await kv.set(["meta", "data_format"], {
      format: DATA_FORMAT + 1,
      reader_format: DATA_FORMAT + 1,
      written_by: "0.9.0",
    });
    await assert.rejects(
      () => checkDataFormat(kv, "0.8.1"),
      new RegExp(`written by Cubby 0.9.0.*reads up to format ${DATA_FORMAT}.*Upgrade`, "s"),
    );
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
