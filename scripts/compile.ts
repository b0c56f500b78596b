/**
 * Builds the single binary (`deno task compile`): the client into dist/, then `deno compile
 * --bundle` of main_binary.ts. The bundle holds only the code the server reaches (the lazily
 * imported server-rendering modules and S3 driver included), instead of every package in
 * node_modules; dist/ is embedded without its source maps, and npm packages with native addons
 * that the server never imports (the icon renderer's) are left out.
 *
 *   deno task compile [--output PATH] [--target TRIPLE] [--no-build] [--no-check]
 *
 * Prints the size of the embedded files as deno compile reports it. DENORT_BIN=$(command -v
 * deno) builds the archive where the runtime cannot be downloaded; that output does not run.
 */
import { existsSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const root = resolve(import.meta.dirname!, "..");

/** The most the embedded files may weigh, in deno compile's units (MB = 1024 × 1024 bytes). */
export const EMBEDDED_LIMIT_MB = 25;

export type CompileOptions = {
  output: string;
  target?: string;
  /** Type-check first (deno compile's default); `deno task check` covers it too. */
  check?: boolean;
  /** Extra environment for deno compile, e.g. DENORT_BIN. */
  env?: Record<string, string>;
};

/** Every file under `dir` whose name ends with `suffix`, relative to the repository root. */
async function filesEnding(dir: string, suffix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...await filesEnding(path, suffix));
    else if (e.name.endsWith(suffix)) out.push(relative(root, path));
  }
  return out.sort();
}

/** Whether a package directory holds a native addon (`*.node`) at its top or one level down. */
async function hasNativeAddon(dir: string, depth = 1): Promise<boolean> {
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith(".node")) return true;
    if (e.isDirectory && depth > 0 && e.name !== "node_modules") {
      if (await hasNativeAddon(join(dir, e.name), depth - 1)) return true;
    }
  }
  return false;
}

type NpmPackage = { dependencies?: string[]; localPath?: string };

/**
 * Packages with native addons that the binary's module graph does not reach (`deno info`):
 * deno compile --bundle embeds every native addon installed, whether or not the program loads
 * it, and the icon renderer's are 8 MB.
 */
async function unusedNativePackages(entry: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`deno info failed: ${new TextDecoder().decode(out.stderr)}`);
  const info = JSON.parse(new TextDecoder().decode(out.stdout));
  const packages: Record<string, NpmPackage> = info.npmPackages ?? {};
  // npmPackages is the whole lockfile; what the graph reaches is its npm modules' closure.
  const reached = new Set<string>();
  const stack: string[] = info.modules
    .filter((m: { kind?: string; npmPackage?: string }) => m.kind === "npm" && m.npmPackage)
    .map((m: { npmPackage: string }) => m.npmPackage);
  while (stack.length) {
    const id = stack.pop()!;
    if (reached.has(id)) continue;
    reached.add(id);
    stack.push(...packages[id]?.dependencies ?? []);
  }
  const unused: string[] = [];
  for (const [id, pkg] of Object.entries(packages)) {
    if (reached.has(id) || !pkg.localPath || !existsSync(pkg.localPath)) continue;
    if (await hasNativeAddon(pkg.localPath)) unused.push(relative(root, pkg.localPath));
  }
  return unused.sort();
}

/** The arguments of `deno compile` for the binary. */
export async function compileArgs(opts: CompileOptions): Promise<string[]> {
  const entry = "main_binary.ts";
  const excluded = [
    ...await filesEnding(join(root, "dist"), ".map"),
    ...await unusedNativePackages(entry),
  ];
  return [
    "compile",
    "-A",
    "--unstable-kv",
    "--unstable-cron",
    ...(opts.check === false ? ["--no-check"] : []),
    "--bundle",
    "--minify",
    "--include",
    "dist",
    ...excluded.flatMap((path) => ["--exclude", path]),
    ...(opts.target ? ["--target", opts.target] : []),
    "--output",
    opts.output,
    entry,
  ];
}

const UNITS: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };

/** Reads deno compile's `Files: 11.9MB` line, in MB of 1024 × 1024 bytes. */
export function parseEmbeddedMb(output: string): number | null {
  const m = output.match(/^Files: ([\d.]+)(B|KB|MB|GB)\s*$/m);
  return m ? Number(m[1]) * UNITS[m[2]] / UNITS.MB : null;
}

/** Runs deno compile; returns its exit code, its output and the embedded size. */
export async function compile(
  opts: CompileOptions,
): Promise<{ success: boolean; output: string; embeddedMb: number | null }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: await compileArgs(opts),
    cwd: root,
    env: { NO_COLOR: "1", ...opts.env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  const output = decoder.decode(out.stdout) + decoder.decode(out.stderr);
  return { success: out.success, output, embeddedMb: parseEmbeddedMb(output) };
}

if (import.meta.main) {
  const args = [...Deno.args];
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i === -1 ? false : (args.splice(i, 1), true);
  };
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i === -1 ? undefined : args.splice(i, 2)[1];
  };
  const noBuild = flag("--no-build");
  const noCheck = flag("--no-check");
  const output = value("--output") ?? "cubby";
  const target = value("--target");
  if (args.length) {
    console.error(
      `usage: deno task compile [--output PATH] [--target TRIPLE] [--no-build] ` +
        `[--no-check]   (unknown: ${args.join(" ")})`,
    );
    Deno.exit(2);
  }
  if (!noBuild) {
    const built = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/build.ts"],
      cwd: root,
      // The binary embeds dist/ of this checkout, wherever the tests point the server.
      env: { CUBBY_DIST_DIR: join(root, "dist") },
    }).spawn().status;
    if (!built.success) Deno.exit(built.code);
  }
  const result = await compile({ output, target, check: !noCheck });
  console.log(result.output);
  if (!result.success) Deno.exit(1);
  const mb = result.embeddedMb;
  console.log(`Embedded files: ${mb?.toFixed(1) ?? "?"} MB (limit ${EMBEDDED_LIMIT_MB} MB)`);
}
