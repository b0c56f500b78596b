/** Server rendering of the React app for one URL, waiting for lazy pages to resolve. */
import { renderToReadableStream } from "react-dom/server";
import { StaticRouter } from "react-router";
import { I18nextProvider } from "react-i18next";
import type { i18n } from "i18next";
import { App } from "../../client/App.tsx";
import { createI18n } from "../../client/i18n/mod.ts";
import { type InitialData, InitialDataContext } from "../../client/app/initial_data.tsx";
import { type Language, LANGUAGES } from "../../shared/constants.ts";

const i18nByLang = new Map<Language, i18n>(LANGUAGES.map((l) => [l, createI18n(l)]));

/** The shared i18next instance of a language (server side). */
export function serverI18n(lang: Language): i18n {
  return i18nByLang.get(lang)!;
}

/** Renders the app at `url` to an HTML string. */
export async function renderApp(url: string, lang: Language, data: InitialData): Promise<string> {
  const stream = await renderToReadableStream(
    <I18nextProvider i18n={serverI18n(lang)}>
      <InitialDataContext.Provider value={data}>
        <StaticRouter location={url}>
          <App />
        </StaticRouter>
      </InitialDataContext.Provider>
    </I18nextProvider>,
  );
  await stream.allReady;
  return await new Response(stream).text();
}
