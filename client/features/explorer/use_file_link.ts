/**
 * Signed file links for thumbnails and previews. A link (from `fs/file-link`) needs no
 * Authorization header, so <img> and <video> can load it. Links are cached until a minute
 * before they expire, and at most LINK_CONCURRENCY are requested at once, so a gallery of a
 * thousand images asks for them as they scroll into view rather than all together.
 */
import { useEffect, useRef, useState } from "react";
import { fileLink } from "./explorer_api.ts";

const LINK_CONCURRENCY = 6;
const cache = new Map<string, { url: string; until: number }>();
const waiting: (() => void)[] = [];
let running = 0;

async function limited<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= LINK_CONCURRENCY) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** A cached inline link to a mount file; throws ApiError. */
export async function cachedFileLink(path: string): Promise<string> {
  const hit = cache.get(path);
  if (hit && hit.until > Date.now()) return hit.url;
  const link = await limited(() => fileLink(path));
  cache.set(path, { url: link.url, until: Date.now() + (link.expires_in - 60) * 1000 });
  return link.url;
}

/** Forgets cached links (after a rename, delete or save changed what a path holds). */
export function forgetFileLinks(paths?: string[]): void {
  if (!paths) {
    cache.clear();
    return;
  }
  for (const p of [...cache.keys()]) {
    if (paths.some((x) => p === x || p.startsWith(x + "/"))) cache.delete(p);
  }
}

/**
 * The link of `path` once the element `ref` points at is near the viewport (or at once when
 * `eager`); null until then, or when it failed.
 */
export function useVisibleFileLink(path: string | null, eager = false) {
  const ref = useRef<HTMLElement | null>(null);
  const [visible, setVisible] = useState(eager);
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (visible || !ref.current) return;
    if (typeof IntersectionObserver === "undefined") {
      setVisible(true);
      return;
    }
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setVisible(true);
    }, { rootMargin: "200px" });
    io.observe(ref.current);
    return () => io.disconnect();
  }, [visible]);

  useEffect(() => {
    if (!visible || !path) return;
    let alive = true;
    setFailed(false);
    cachedFileLink(path).then(
      (u) => alive && setUrl(u),
      () => alive && setFailed(true),
    );
    return () => {
      alive = false;
    };
  }, [visible, path]);

  return { ref, url, failed };
}
