import assert from "node:assert/strict";
import { mimeParts } from "./MimeType.tsx";

Deno.test("MIME types break only after their separators", () => {
  assert.deepEqual(
    mimeParts("application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
    [
      "application/",
      "vnd.",
      "openxmlformats-",
      "officedocument.",
      "wordprocessingml.",
      "document",
    ],
  );
  assert.deepEqual(mimeParts("image/svg+xml"), ["image/", "svg+", "xml"]);
  assert.deepEqual(mimeParts("text/plain"), ["text/", "plain"]);
});
