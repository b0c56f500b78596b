/**
 * Data the server rendered a page with. The browser reads the same JSON from the document so
 * that hydration renders exactly what the server did; afterwards pages fetch as usual.
 */
import { createContext, useContext } from "react";

export type InitialData = {
  /** Site title used for page titles. */
  siteTitle: string;
  /** The page's data keyed by route, e.g. { paste: {...} } for /paste/{slug}. */
  page?: Record<string, unknown>;
};

export const InitialDataContext = createContext<InitialData>({ siteTitle: "Cubby" });

/** The server-rendered data of this document. */
export function useInitialData(): InitialData {
  return useContext(InitialDataContext);
}

/** Reads the data the server embedded in the document (browser only). */
export function readEmbeddedData(): InitialData | null {
  const el = globalThis.document?.getElementById("__cubby_data");
  if (!el?.textContent) return null;
  try {
    return JSON.parse(el.textContent);
  } catch {
    return null;
  }
}
