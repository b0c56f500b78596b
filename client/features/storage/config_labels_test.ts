import assert from "node:assert/strict";
import { configLabels } from "./config_labels.ts";

const cfg = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  provider_type: "minio" as const,
  bucket_name: "files",
  default_folder: "",
  root_dir: null,
  ...extra,
});

Deno.test("config labels: unique names stay; shared names get the bucket, folder or directory", () => {
  const labels = configLabels([
    cfg("01A", "Photos", { bucket_name: "photos-eu" }),
    cfg("01B", "photos ", { bucket_name: "photos-us", default_folder: "/cubby/" }),
    cfg("01C", "Videos"),
    cfg("01D", "Disk", { provider_type: "local", root_dir: "/srv/a" }),
    cfg("01E", "Disk", { provider_type: "local", root_dir: "/srv/b" }),
  ]);
  assert.equal(labels.get("01A"), "Photos (photos-eu)");
  assert.equal(labels.get("01B"), "photos (photos-us/cubby)");
  assert.equal(labels.get("01C"), "Videos");
  assert.equal(labels.get("01D"), "Disk (/srv/a)");
  assert.equal(labels.get("01E"), "Disk (/srv/b)");
});

Deno.test("config labels: the same name and bucket are told apart by the end of the id", () => {
  const labels = configLabels([cfg("01HXAAAAAA111111", "Twin"), cfg("01HXAAAAAA222222", "Twin")]);
  assert.equal(labels.get("01HXAAAAAA111111"), "Twin (files #111111)");
  assert.equal(labels.get("01HXAAAAAA222222"), "Twin (files #222222)");
});
