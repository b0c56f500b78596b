/**
 * Rasterises the one source image (static/favicon.svg) into the PNG icons of the web app
 * manifest: 192 and 512 px, and a 512 px maskable icon whose artwork sits inside the centre
 * safe zone on a full-bleed background; plus the opaque 180 px apple-touch-icon. A failure
 * stops the build.
 */
import { Resvg } from "@resvg/resvg-js";
import { join } from "node:path";
import { APPLE_TOUCH_ICON, ICON_BACKGROUND, MANIFEST_ICONS } from "../shared/pwa.ts";

/** Share of the maskable icon the artwork may use (the safe zone is a circle of 80 %). */
const MASKABLE_ARTWORK = 0.7;

/** Wraps the source in a full-bleed square with the artwork scaled into the safe zone. */
function maskableSvg(source: string, size: number): string {
  const inner = Math.round(size * MASKABLE_ARTWORK);
  const offset = Math.round((size - inner) / 2);
  const body = source.replace(/<\?xml[^>]*>/, "").replace(
    /<svg\b/,
    `<svg x="${offset}" y="${offset}" width="${inner}" height="${inner}"`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" ` +
    `viewBox="0 0 ${size} ${size}"><rect width="${size}" height="${size}" ` +
    `fill="${ICON_BACKGROUND}"/>${body}</svg>`;
}

/** Writes dist/icons/*.png from the source SVG; throws when the source is missing or bad. */
export async function buildIcons(sourceSvg: string, distDir: string): Promise<string[]> {
  const source = await Deno.readTextFile(sourceSvg);
  await Deno.mkdir(join(distDir, "icons"), { recursive: true });
  const written: string[] = [];
  const icons = [...MANIFEST_ICONS, { ...APPLE_TOUCH_ICON, purpose: "opaque" }];
  for (const icon of icons) {
    const svg = icon.purpose !== "any" ? maskableSvg(source, icon.size) : source;
    const png = new Resvg(svg, { fitTo: { mode: "width", value: icon.size } }).render();
    if (png.width !== icon.size || png.height !== icon.size) {
      throw new Error(`build: icon ${icon.src} rendered ${png.width}x${png.height}`);
    }
    await Deno.writeFile(join(distDir, icon.src), png.asPng());
    written.push(icon.src);
  }
  return written;
}
