/** The connection test of a storage config: each step timed, with what it saw or why it failed. */
import { ulid } from "../lib/ulid.ts";
import { AppError } from "../errors.ts";
import type { StorageTestStep } from "../../shared/schemas/storage_configs.ts";
import type { StorageDriver } from "../storage/driver.ts";

/**
 * Connects with `connect` (reported as `where`), then writes, reads, lists and deletes a test
 * object, then checks CORS for browser uploads when the driver can.
 */
export async function checkStorage(
  connect: () => Promise<StorageDriver>,
  where: string,
): Promise<{ ok: boolean; steps: StorageTestStep[] }> {
  const steps: StorageTestStep[] = [];
  const run = async (step: string, fn: () => Promise<string>) => {
    const started = performance.now();
    try {
      const message = await fn();
      steps.push({ step, ok: true, message, ms: Math.round(performance.now() - started) });
      return true;
    } catch (err) {
      const message = err instanceof AppError
        ? String(err.details?.message ?? err.code)
        : (err instanceof Error ? err.message : String(err));
      steps.push({ step, ok: false, message, ms: Math.round(performance.now() - started) });
      return false;
    }
  };
  const key = `cubby-storage-test/${ulid()}.txt`;
  const payload = `cubby storage test ${new Date().toISOString()}`;
  let driver: StorageDriver | null = null;
  const ready = await run("connect", async () => {
    driver = await connect();
    return where;
  });
  if (ready && driver) {
    const d = driver as StorageDriver;
    const wrote = await run("write", async () => {
      const r = await d.put(key, payload, { contentType: "text/plain" });
      return `${r.size} bytes`;
    });
    if (wrote) {
      await run("read", async () => {
        const got = await d.get(key);
        const text = await new Response(got.body).text();
        if (text !== payload) throw new Error("read back different bytes");
        return `${got.size} bytes`;
      });
      await run("list", async () => {
        const listed = await d.list("cubby-storage-test/", { limit: 1000 });
        if (!listed.items.some((i) => i.key === key)) throw new Error("test object not listed");
        return `${listed.items.length} objects`;
      });
      await run("delete", async () => {
        await d.delete(key);
        if (await d.head(key)) throw new Error("object still exists");
        return "ok";
      });
    }
    if (d.checkCors) await run("cors", () => d.checkCors!());
  }
  return { ok: steps.every((s) => s.ok), steps };
}
