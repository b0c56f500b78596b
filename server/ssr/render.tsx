/**
 * Server rendering of the pages that are rendered on the server (share pages, the offline
 * page). Two choices keep it cheap, measured with `--cpu-prof`:
 *
 * - The server matches against its own small route table, not the app's `<App>` table of every
 *   screen: react-router flattens and ranks the whole table on every render. The table below
 *   wraps the same components in the same `Layout` route as client/App.tsx, so the markup is
 *   identical (render_test.tsx compares the two) and the browser hydrates it with `<App>`.
 * - Translations are constant on the server, so each language's `t` keeps the texts of calls
 *   with no or flat options in a map instead of going through i18next's option merging.
 *
 * None of these pages suspends, so `renderToString` renders them in one synchronous pass.
 */
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { Route, Routes, StaticRouter } from "react-router";
import { I18nextProvider } from "react-i18next";
import type { i18n, TFunction } from "i18next";
import { Layout } from "../../client/app/Layout.tsx";
import { PastePage } from "../../client/features/pastes/PastePage.tsx";
import { FilePage } from "../../client/features/files/FilePage.tsx";
import { OfflinePage } from "../../client/components/OfflinePage.tsx";
import { createI18n } from "../../client/i18n/mod.ts";
import { type InitialData, InitialDataContext } from "../../client/app/initial_data.tsx";
import { type Language, LANGUAGES } from "../../shared/constants.ts";

/** Memoised translations per fixed `t`; cleared when full (counts make many variants). */
const MEMO_MAX_ENTRIES = 2000;

/** A cache key for `t(key, options)` when the options are flat primitives; else null. */
function memoKey(key: unknown, rest: unknown[]): string | null {
  if (typeof key !== "string") return null;
  if (rest.length === 0) return key;
  const [options] = rest;
  if (rest.length > 1 || typeof options !== "object" || options === null) return null;
  for (const value of Object.values(options)) {
    if (value !== null && typeof value === "object" || typeof value === "function") return null;
  }
  return `${key}\0${JSON.stringify(options)}`;
}

/**
 * Wraps getFixedT so that calls with a key and no options, or flat primitive options
 * (interpolated values, counts), are answered from a map: on the server the resources and the
 * language of an instance never change, so the same call always gives the same text.
 */
function memoizeTranslations(instance: i18n): i18n {
  const getFixedT = instance.getFixedT.bind(instance);
  const fixed = new Map<string, TFunction>();
  instance.getFixedT = ((...args: Parameters<i18n["getFixedT"]>) => {
    const id = JSON.stringify(args);
    let t = fixed.get(id);
    if (!t) {
      const inner = getFixedT(...args);
      const call = inner as unknown as (...a: unknown[]) => string;
      const memo = new Map<string, string>();
      t = Object.assign((key: unknown, ...rest: unknown[]) => {
        const id = memoKey(key, rest);
        if (id === null) return call(key, ...rest);
        let text = memo.get(id);
        if (text === undefined) {
          text = call(key, ...rest);
          if (memo.size >= MEMO_MAX_ENTRIES) memo.clear();
          memo.set(id, text);
        }
        return text;
      }, inner) as unknown as TFunction;
      fixed.set(id, t);
    }
    return t;
  }) as i18n["getFixedT"];
  return instance;
}

const i18nByLang = new Map<Language, i18n>(
  LANGUAGES.map((l) => [l, memoizeTranslations(createI18n(l))]),
);

/** The shared i18next instance of a language (server side). */
export function serverI18n(lang: Language): i18n {
  return i18nByLang.get(lang)!;
}

/** The routes the server renders, in the same `Layout` route as client/App.tsx. */
function ServerPages() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route path="paste/:slug" element={<PastePage />} />
        <Route path="file/:slug" element={<FilePage />} />
        <Route path="offline" element={<OfflinePage />} />
      </Route>
    </Routes>
  );
}

/** Renders `routes` at `url` to an HTML string, inside the providers every page reads. */
export function renderRoutes(
  url: string,
  i18n: i18n,
  data: InitialData,
  routes: ReactNode,
): string {
  return renderToString(
    <I18nextProvider i18n={i18n}>
      <InitialDataContext.Provider value={data}>
        <StaticRouter location={url}>{routes}</StaticRouter>
      </InitialDataContext.Provider>
    </I18nextProvider>,
  );
}

/** Renders the server-rendered page at `url` to an HTML string. */
export function renderApp(url: string, lang: Language, data: InitialData): string {
  return renderRoutes(url, serverI18n(lang), data, <ServerPages />);
}
