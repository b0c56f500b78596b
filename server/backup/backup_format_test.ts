import assert from "node:assert/strict";
import {
  backupChecksum,
  canonicalJson,
  invalidFile,
  parseJsonText,
  readCubbyBackup,
} from "./backup_format.ts";
import { AppError } from "../errors.ts";

const SETTINGS = [{ key: "site_title", value: { nested: [1, "x"], a: null } }];
const ACCOUNT = [{
  username: "admin",
  password_hash: "pbkdf2$1000$salt$hash",
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
}];

async function file(data: Record<string, unknown>, over: Record<string, unknown> = {}) {
  return {
    metadata: {
      app: "cubby",
      version: 1,
      app_version: "1.0.0",
      created_at: "2026-03-01T00:00:00.000Z",
      type: "partial",
      modules: Object.keys(data),
      counts: Object.fromEntries(
        Object.entries(data).map(([k, v]) => [k, (v as unknown[]).length]),
      ),
      checksum: await backupChecksum(data),
      ...over,
    },
    data,
  };
}

async function codeOf(p: Promise<unknown>): Promise<{ code: string; details?: unknown }> {
  const err = await p.then(() => null, (e) => e);
  assert.ok(err instanceof AppError && err.status === 400, `expected a 400, got ${err}`);
  return { code: err.code, details: err.details };
}

Deno.test("canonical JSON sorts keys at every level and keeps array order", async () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } }),
    '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
  );
  assert.equal(await backupChecksum({ b: 1, a: 2 }), await backupChecksum({ a: 2, b: 1 }));
  assert.notEqual(await backupChecksum([1, 2]), await backupChecksum([2, 1]));
  assert.match(await backupChecksum({}), /^[0-9a-f]{64}$/);
});

Deno.test("parseJsonText takes a BOM and refuses non-JSON with backup_parse_failed", async () => {
  assert.deepEqual(parseJsonText('\ufeff{"a":1}'), { a: 1 });
  assert.equal(
    (await codeOf(Promise.resolve().then(() => parseJsonText("{nope")))).code,
    "backup_parse_failed",
  );
  assert.deepEqual(invalidFile("r").details, { reason: "r" });
  assert.deepEqual(invalidFile("r", "p").details, { reason: "r", path: "p" });
});

Deno.test("a well-formed backup reads back with its info, modules in canonical order", async () => {
  const f = await file({ system_settings: SETTINGS, account_management: ACCOUNT });
  const parsed = await readCubbyBackup(f.metadata, f.data);
  assert.deepEqual(parsed.info.modules, ["account_management", "system_settings"]);
  assert.deepEqual(parsed.info.counts, { system_settings: 1, account_management: 1 });
  assert.deepEqual(parsed.data.system_settings, SETTINGS);
  assert.equal(parsed.info.format, "cubby");
});

Deno.test("every inconsistency is refused before anything is restored", async () => {
  const good = await file({ system_settings: SETTINGS });
  const read = (m: Record<string, unknown>, d: Record<string, unknown> = good.data) =>
    codeOf(readCubbyBackup(m, d));
  assert.equal((await read({ ...good.metadata, version: 2 })).code, "backup_unsupported_version");
  assert.deepEqual((await read({ ...good.metadata, app: "other" })).details, {
    reason: "metadata",
    path: "metadata.app",
  });
  assert.deepEqual((await read(good.metadata, { ...good.data, extra: [] })).details, {
    reason: "unknown_module",
    path: "data.extra",
  });
  assert.equal(
    ((await read({ ...good.metadata, modules: ["system_settings", "key_management"] })).details as {
      reason: string;
    }).reason,
    "modules_mismatch",
  );
  const tampered = { system_settings: [{ key: "site_title", value: "changed" }] };
  assert.equal((await read(good.metadata, tampered)).code, "backup_checksum_mismatch");
  const miscounted = await file({ system_settings: SETTINGS }, { counts: { system_settings: 2 } });
  assert.deepEqual((await read(miscounted.metadata, miscounted.data)).details, {
    reason: "count_mismatch",
    path: "metadata.counts.system_settings",
  });
  const badRecord = await file({
    account_management: [{ ...ACCOUNT[0], created_at: "yesterday" }],
  });
  assert.deepEqual((await read(badRecord.metadata, badRecord.data)).details, {
    reason: "record",
    path: "data.account_management.0.created_at",
  });
  const twoAdmins = await file({ account_management: [ACCOUNT[0], ACCOUNT[0]] });
  assert.equal(
    ((await read(twoAdmins.metadata, twoAdmins.data)).details as { reason: string }).reason,
    "record",
  );
});
