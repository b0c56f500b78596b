import assert from "node:assert/strict";
import {
  curlCommand,
  flameshotScript,
  shareXConfig,
  shareXFileName,
  shellQuote,
} from "./uploader_configs.ts";

const target = { origin: "https://cubby.example.com/", key: "cb_abc123", name: "My laptop" };

Deno.test("the ShareX uploader PUTs the file to upload-direct and takes the URL from the reply", () => {
  assert.deepEqual(shareXConfig(target), {
    Version: "15.0.0",
    Name: "Cubby (My laptop)",
    DestinationType: "ImageUploader, TextUploader, FileUploader",
    RequestMethod: "PUT",
    RequestURL: "https://cubby.example.com/api/upload-direct/{filename}",
    Headers: { Authorization: "ApiKey cb_abc123", Accept: "text/plain" },
    Body: "Binary",
    URL: "{response}",
    ErrorMessage: "{response}",
  });
  assert.equal(shareXFileName("My laptop / 2"), "cubby-My-laptop-2.sxcu");
  assert.equal(shareXFileName("笔记本"), "cubby-key.sxcu");
});

Deno.test("the curl line and the Flameshot snippet quote the key for the shell", () => {
  assert.equal(
    curlCommand(target, "a b.png"),
    "curl -sS -T 'a b.png' -H 'Authorization: ApiKey cb_abc123' -H 'Accept: text/plain' " +
      "'https://cubby.example.com/api/upload-direct/'",
  );
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
  const script = flameshotScript(target);
  assert.match(script, /flameshot gui --raw \| curl -sS -T - \\/);
  assert.match(script, /'https:\/\/cubby\.example\.com\/api\/upload-direct\/'"\$name"\)/);
  assert.match(script, /-H 'Authorization: ApiKey cb_abc123'/);
});
