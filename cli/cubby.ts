/**
 * Cubby's command-line client for end-to-end encrypted shares (docs/E2E.md). The server builds
 * it into one script (scripts/build_cli.ts) and serves it at /cli.ts, so it runs wherever Deno
 * does, with nothing to install:
 *
 *   deno run --allow-net --allow-read --allow-env https://cubby.example/cli.ts send report.pdf
 *   deno run --allow-net --allow-write=. https://cubby.example/cli.ts get 'https://…/file/x#key'
 *
 * It uses web APIs and Deno's own only. The server it talks to is the one it was fetched from,
 * unless --server or CUBBY_URL says otherwise.
 */
import { CliError } from "./http.ts";
import { send } from "./send.ts";
import { decrypt, get } from "./get.ts";
import { text } from "./messages.ts";

type Flags = { _: string[]; [name: string]: string | boolean | string[] };

/** Parses `--name value`, `--flag`, `-o value` and positionals. */
export function parseArgs(args: string[]): Flags {
  const bool = new Set(["text", "password", "force", "help"]);
  const out: Flags = { _: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-o") out.output = args[++i] ?? "";
    else if (a.startsWith("--")) {
      const [name, inline] = a.slice(2).split(/=(.*)/s);
      if (bool.has(name)) out[name] = true;
      else out[name] = inline ?? args[++i] ?? "";
    } else out._.push(a);
  }
  return out;
}

/** An environment variable when --allow-env grants it (never a permission prompt). */
function env(name: string): string | undefined {
  try {
    if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
      return undefined; // no --allow-env: the flag is the way then
    }
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/** Reads a password from the terminal without echoing it. */
async function askPassword(): Promise<string> {
  const given = env("CUBBY_PASSWORD");
  if (given) return given;
  if (!Deno.stdin.isTerminal()) {
    throw new CliError(text("passwordNeeded"));
  }
  await Deno.stderr.write(new TextEncoder().encode(text("passwordPrompt")));
  Deno.stdin.setRaw(true);
  const bytes: number[] = [];
  const buf = new Uint8Array(1);
  try {
    while (true) {
      const n = await Deno.stdin.read(buf);
      if (n === null || buf[0] === 13 || buf[0] === 10) break;
      if (buf[0] === 3) throw new CliError(text("cancelled"));
      if (buf[0] === 127 || buf[0] === 8) bytes.pop();
      else bytes.push(buf[0]);
    }
  } finally {
    Deno.stdin.setRaw(false);
    await Deno.stderr.write(new TextEncoder().encode("\n"));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The server: --server, $CUBBY_URL, or the origin this script was served from. */
function serverOf(flags: Flags): string {
  const given = (flags.server as string | undefined) ?? env("CUBBY_URL");
  const own = /^https?:/.test(import.meta.url) ? new URL(import.meta.url).origin : undefined;
  const server = given ?? own;
  if (!server) throw new CliError(text("noServer"));
  return server.replace(/\/+$/, "");
}

const numberFlag = (v: unknown) => v === undefined ? undefined : Number(v);

/** Runs one command; resolves with the exit code. */
export async function main(args: string[]): Promise<number> {
  const flags = parseArgs(args);
  const [command, target] = flags._;
  try {
    if (command === "send") {
      const apiKey = (flags.key as string | undefined) ?? env("CUBBY_API_KEY");
      if (!apiKey) throw new CliError(text("noApiKey"));
      const link = await send({
        server: serverOf(flags),
        apiKey,
        input: target ?? "-",
        name: flags.name as string | undefined,
        type: flags.type as string | undefined,
        password: flags.password ? await askPassword() : null,
        text: !!flags.text,
        expiresHours: numberFlag(flags.expires),
        maxViews: numberFlag(flags["max-views"]),
        remark: flags.remark as string | undefined,
      });
      console.log(link);
    } else if (command === "get" && target) {
      const where = await get({
        link: target,
        output: flags.output as string | undefined,
        force: !!flags.force,
        password: askPassword,
      });
      if (where !== "-") console.error(text("saved", { path: where }));
    } else if (command === "decrypt" && target) {
      await decrypt(target, flags.password ? await askPassword() : null);
    } else {
      console.error(text("usage"));
      return flags.help ? 0 : 2;
    }
    return 0;
  } catch (err) {
    console.error(text("error", { message: err instanceof CliError ? err.message : String(err) }));
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
