/**
 * WCAG contrast from computed CSS colours: `rgb()`/`rgba()` strings as getComputedStyle gives
 * them, a translucent colour laid over what is behind it, and the contrast ratio of two.
 */

export type Rgba = [number, number, number, number];

/** Parses `rgb(r, g, b)` or `rgba(r, g, b, a)`; throws on anything else. */
export function parseColor(css: string): Rgba {
  const m = css.match(/rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+))?\s*\)/);
  if (!m) throw new Error(`not an rgb() colour: ${css}`);
  return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
}

/** `top` laid over the opaque `bottom`. */
export function over(top: Rgba, bottom: Rgba): Rgba {
  const a = top[3];
  return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat(1) as Rgba;
}

function luminance([r, g, b]: Rgba): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The WCAG contrast ratio of two opaque colours (1 to 21). */
export function contrast(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The colours of a `box-shadow` value, outermost last (as listed). */
export function shadowColors(boxShadow: string): Rgba[] {
  return [...boxShadow.matchAll(/rgba?\([^)]*\)/g)].map((m) => parseColor(m[0]));
}
