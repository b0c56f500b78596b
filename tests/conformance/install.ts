/**
 * Where the pinned schemathesis lives: scripts/install_schemathesis.sh installs the version of
 * requirements.txt (beside this file) into ~/.cache/cubby-schemathesis-<version>, as a venv or,
 * where venv is missing, as a pip `--target` directory with a `bin/st` wrapper.
 */
import { join, resolve } from "node:path";

const here = import.meta.dirname!;

/** The pinned version, from requirements.txt (`schemathesis==X.Y.Z`). */
export function pinnedVersion(): string {
  const text = Deno.readTextFileSync(join(here, "requirements.txt"));
  const m = text.match(/^schemathesis==([\w.]+)\s*$/m);
  if (!m) throw new Error("tests/conformance/requirements.txt does not pin schemathesis==X.Y.Z");
  return m[1];
}

/** The install directory (SCHEMATHESIS_HOME overrides ~/.cache/cubby-schemathesis-<version>). */
export function installDir(version = pinnedVersion()): string {
  const home = Deno.env.get("HOME") ?? "/tmp";
  return resolve(
    Deno.env.get("SCHEMATHESIS_HOME") || join(home, ".cache", `cubby-schemathesis-${version}`),
  );
}

/** The `st` executable of the pinned version, or why there is none. */
export async function findSchemathesis(): Promise<
  { ok: true; path: string } | { ok: false; why: string }
> {
  const version = pinnedVersion();
  const st = join(installDir(version), "bin", "st");
  const fix = "run `bash scripts/install_schemathesis.sh` (.ci/run does)";
  try {
    const out = await new Deno.Command(st, { args: ["--version"], stdin: "null" }).output();
    const text = new TextDecoder().decode(out.stdout).trim();
    if (out.code === 0 && text.endsWith(`version ${version}`)) return { ok: true, path: st };
    return { ok: false, why: `${st} is not schemathesis ${version} (${text}): ${fix}` };
  } catch {
    return { ok: false, why: `schemathesis ${version} is not installed at ${st}: ${fix}` };
  }
}
