/**
 * Ready-made uploaders for a new API key (as Zipline offers): a ShareX custom uploader
 * (`.sxcu`), a `curl` line and a Flameshot shell snippet. Each PUTs the file to
 * `/api/upload-direct/<name>` with `Accept: text/plain`, so the answer is the share URL alone,
 * which ShareX copies ("{response}") and the shell pipes to the clipboard. The full key is only
 * known when it is created, so these are offered then.
 */

/** What the snippets are made for: the site's origin, the key and its name. */
export type UploaderTarget = { origin: string; key: string; name: string };

const endpoint = (origin: string) => `${origin.replace(/\/+$/, "")}/api/upload-direct/`;

/** Quotes a value for a POSIX shell (single quotes, each inner quote closed and escaped). */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** A ShareX custom uploader (the JSON of a `.sxcu` file) for files, images and text. */
export function shareXConfig(t: UploaderTarget): Record<string, unknown> {
  return {
    Version: "15.0.0",
    Name: `Cubby (${t.name})`,
    DestinationType: "ImageUploader, TextUploader, FileUploader",
    RequestMethod: "PUT",
    RequestURL: `${endpoint(t.origin)}{filename}`,
    Headers: { Authorization: `ApiKey ${t.key}`, Accept: "text/plain" },
    Body: "Binary",
    URL: "{response}",
    ErrorMessage: "{response}",
  };
}

/** The `.sxcu` file's name: `cubby-<key name>.sxcu`, with only safe characters. */
export function shareXFileName(name: string): string {
  const safe = name.normalize("NFKD").replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "");
  return `cubby-${safe || "key"}.sxcu`;
}

/** A curl line that uploads FILE and prints its share URL (curl adds the name to the URL). */
export function curlCommand(t: UploaderTarget, file = "FILE"): string {
  return [
    "curl -sS -T",
    shellQuote(file),
    "-H",
    shellQuote(`Authorization: ApiKey ${t.key}`),
    "-H",
    shellQuote("Accept: text/plain"),
    shellQuote(endpoint(t.origin)),
  ].join(" ");
}

/** A shell snippet: a Flameshot region capture, uploaded, its URL on the clipboard and shown. */
export function flameshotScript(t: UploaderTarget): string {
  return [
    "#!/bin/sh",
    "# Capture a region with Flameshot, upload it to Cubby, copy the share URL.",
    `name="screenshot-$(date +%Y%m%d-%H%M%S).png"`,
    "url=$(flameshot gui --raw | curl -sS -T - \\",
    `  -H ${shellQuote(`Authorization: ApiKey ${t.key}`)} \\`,
    `  -H ${shellQuote("Accept: text/plain")} \\`,
    `  ${shellQuote(endpoint(t.origin))}"$name")`,
    `printf '%s' "$url" | (wl-copy 2>/dev/null || xclip -selection clipboard)`,
    `notify-send "Cubby" "$url" 2>/dev/null || echo "$url"`,
  ].join("\n");
}
