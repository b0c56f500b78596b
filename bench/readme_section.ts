/** Writes a bench's results into its own marked section of bench/README.md. */
import { join } from "node:path";

const ROOT = join(import.meta.dirname!, "..");
const README = join(ROOT, "bench", "README.md");

/** Formats Markdown as `deno fmt` would in this repository (tables aligned, lines wrapped). */
export async function formatMarkdown(text: string): Promise<string> {
  const fmt = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext", "md", "-"],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = fmt.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const out = await fmt.output();
  return out.success ? new TextDecoder().decode(out.stdout) : text;
}

/**
 * Replaces what lies between `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->` in
 * bench/README.md with `text`, formatted, and nothing else. Throws when the markers are missing.
 */
export async function writeReadmeSection(name: string, text: string): Promise<void> {
  const startMark = `<!-- bench:${name}:start -->`;
  const readme = await Deno.readTextFile(README);
  const start = readme.indexOf(startMark);
  const end = readme.indexOf(`<!-- bench:${name}:end -->`);
  if (start < 0 || end < 0) throw new Error(`bench/README.md lacks the ${startMark} markers`);
  const body = (await formatMarkdown(text)).trimEnd();
  await Deno.writeTextFile(
    README,
    `${readme.slice(0, start + startMark.length)}\n\n${body}\n\n${readme.slice(end)}`,
  );
}
