import assert from "node:assert/strict";
import { createTestApp } from "../../tests/helpers/app.ts";
import { BROWSER_UPLOAD_CORS, startS3rver } from "../../tests/helpers/s3rver.ts";

Deno.test("storage configs: the default one is named in the reader's language until renamed", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const names = async (language: string) => {
    const res = await t.request("/api/s3-configs", { auth: admin, lang: language });
    return (await res.json()).data.map((c: { name: string }) => c.name);
  };
  assert.deepEqual(await names("zh-CN"), ["本地存储"]);
  assert.deepEqual(await names("en-US,en;q=0.9"), ["Local storage"]);
  const [local] = (await (await t.request("/api/s3-configs", { auth: admin })).json()).data;
  const stats = await t.request("/api/admin/dashboard/stats", { auth: admin, lang: "en-US" });
  assert.deepEqual(
    (await stats.json()).data.buckets.map((b: { name: string }) => b.name),
    ["Local storage"],
  );
  const renamed = await t.request(`/api/s3-configs/${local.id}`, {
    method: "PUT",
    auth: admin,
    json: { name: "Disk" },
  });
  assert.equal((await renamed.json()).data.name, "Disk");
  assert.deepEqual(await names("en-US"), ["Disk"]);
  assert.deepEqual(await names("zh-CN"), ["Disk"]);
  assert.equal(
    await t.statusOf("PUT", `/api/s3-configs/${local.id}`, admin, { name: "  " }),
    400,
    "an admin cannot name a config empty",
  );
});

Deno.test("storage configs: a name another config has is refused with 409 at the name field", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const local = (name: string) => ({ name, provider_type: "local", root_dir: `${t.dir}/${name}` });
  const post = (json: unknown) =>
    t.request("/api/s3-configs", { method: "POST", auth: admin, json, lang: "en-US" });
  const first = await post(local("Photos"));
  assert.equal(first.status, 201);
  const photos = (await first.json()).data;
  for (const name of ["Photos", " photos ", "PHOTOS"]) {
    const res = await post(local(name));
    assert.equal(res.status, 409, name);
    const body = await res.json();
    assert.equal(body.error, "storage_config_name_exists");
    assert.equal(body.message, "A storage config with this name exists; choose another name");
    assert.deepEqual(body.data.fields, { name: "storage_config_name_exists" });
  }
  const other = (await (await post(local("Videos"))).json()).data;
  const rename = (id: string, name: string) =>
    t.request(`/api/s3-configs/${id}`, { method: "PUT", auth: admin, json: { name } });
  assert.equal((await rename(other.id, "photos")).status, 409, "renaming onto a taken name");
  assert.equal((await rename(photos.id, "Photos")).status, 200, "keeping its own name");
  assert.equal((await rename(photos.id, "Pictures")).status, 200);
  assert.equal((await post(local("Photos"))).status, 201, "a name given up is free again");
  assert.equal(await t.statusOf("DELETE", `/api/s3-configs/${other.id}`, admin), 200);
  assert.equal((await post(local("Videos"))).status, 201, "a deleted config's name is free");
});

Deno.test("storage configs: two creates with one name at once make one config", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const statuses = await Promise.all(
    [1, 2, 3, 4].map((n) =>
      t.statusOf("POST", "/api/s3-configs", admin, {
        name: "Same",
        provider_type: "local",
        root_dir: `${t.dir}/same-${n}`,
      })
    ),
  );
  assert.deepEqual(statuses.sort(), [201, 409, 409, 409]);
});

Deno.test("storage configs: create, secret sealed at rest and never returned, default, delete", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const res = await t.call("POST", "/api/s3-configs", admin, {
    name: "r2",
    provider_type: "r2",
    endpoint_url: "https://example.r2.cloudflarestorage.com",
    bucket_name: "bucket",
    access_key_id: "AKIAEXAMPLE",
    secret_access_key: "super-secret-value",
  });
  assert.equal(res.status, 201);
  const cfg = res.body.data;
  assert.equal(cfg.region, "auto", "R2 gets region auto");
  assert.equal(cfg.has_secret, true);
  assert.ok(!JSON.stringify(cfg).includes("super-secret-value"));
  assert.ok(!JSON.stringify(cfg).includes("AKIAEXAMPLE"));
  const raw = JSON.stringify((await t.kv.get(["storage_configs", cfg.id])).value);
  assert.ok(!raw.includes("super-secret-value"), "encrypted at rest");

  assert.equal(
    await t.statusOf("POST", "/api/s3-configs", admin, { name: "x", provider_type: "aws" }),
    400,
  );

  const keep = await t.call("PUT", `/api/s3-configs/${cfg.id}`, admin, {
    name: "renamed",
    secret_access_key: "",
  });
  assert.equal(keep.body.data.has_secret, true);

  assert.equal((await t.call("PUT", `/api/s3-configs/${cfg.id}/set-default`, admin)).status, 200);
  const list = (await t.call("GET", "/api/s3-configs", admin)).body.data;
  assert.deepEqual(
    list.map((c: { name: string; is_default: boolean }) => [c.name, c.is_default]),
    [["本地存储", false], ["renamed", true]],
  );
  const keyUser = (await t.createKey({ file: true })).auth;
  const visible = (await t.call("GET", "/api/s3-configs", keyUser)).body.data;
  assert.deepEqual(
    visible.map((c: { name: string }) => c.name),
    ["本地存储"],
    "public only",
  );

  const del = await t.call("DELETE", `/api/s3-configs/${cfg.id}`, admin);
  assert.equal(del.status, 200);
  const after = (await t.call("GET", "/api/s3-configs", admin)).body.data;
  assert.equal(after[0].is_default, true, "the default moves to a remaining config");
});

Deno.test("the test endpoint reports each step, against local storage and s3rver", async () => {
  await using t = await createTestApp();
  await using s3 = await startS3rver();
  const admin = await t.adminAuth();
  const local = (await t.call("GET", "/api/s3-configs", admin)).body.data[0];
  const localTest = (await t.call("POST", `/api/s3-configs/${local.id}/test`, admin)).body.data;
  assert.equal(localTest.ok, true, JSON.stringify(localTest));
  assert.deepEqual(
    localTest.steps.map((s: { step: string }) => s.step),
    ["connect", "write", "read", "list", "delete"],
  );

  const cfg = await t.createS3rverConfig(s3, { is_public: true });
  const s3Test = (await t.call("POST", `/api/s3-configs/${cfg.id}/test`, admin)).body.data;
  const failed = s3Test.steps.filter((s: { ok: boolean }) => !s.ok);
  assert.deepEqual(
    failed.map((s: { step: string }) => s.step).filter((s: string) => s !== "cors"),
    [],
    JSON.stringify(s3Test),
  );
  const cors = s3Test.steps.find((s: { step: string }) => s.step === "cors");
  assert.equal(cors?.ok, false, "no CORS rules yet");
  assert.match(cors.message, /no CORS configuration/);
  await s3.setCors(BROWSER_UPLOAD_CORS);
  const again = (await t.call("POST", `/api/s3-configs/${cfg.id}/test`, admin)).body.data;
  assert.equal(again.ok, true, JSON.stringify(again));
  assert.match(again.steps.at(-1).message, /ETag exposed/);

  // A file share on S3: proxied download and a presigned redirect.
  const bytes = crypto.getRandomValues(new Uint8Array(4096));
  const up = await t.request(`/api/upload-direct/data.bin?s3_config_id=${cfg.id}`, {
    method: "PUT",
    auth: admin,
    body: bytes,
  });
  const file = (await up.json()).data;
  assert.equal(up.status, 201, JSON.stringify(file));
  const dl = await t.request(`/api/file-download/${file.slug}`);
  assert.deepEqual(new Uint8Array(await dl.arrayBuffer()), bytes);
  await t.request(`/api/files/${file.id}`, {
    method: "PUT",
    auth: admin,
    json: { use_proxy: false },
  });
  const redirect = await t.request(`/api/file-download/${file.slug}`, { redirect: "manual" });
  assert.equal(redirect.status, 302);
  const direct = await fetch(redirect.headers.get("location")!);
  assert.deepEqual(new Uint8Array(await direct.arrayBuffer()), bytes);
});
