/**
 * Catches a page that fails to render, most often a lazy chunk that cannot load (offline, or
 * after a redeploy), and shows a recoverable message with retry and reload instead of an
 * empty page; a chunk that could not load while the browser is offline (a screen never
 * visited online) gets the offline page, with home, back and retry. It resets itself when the
 * route changes.
 */
import { Component, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { isChunkLoadError, retryFailedPages } from "../app/lazy_page.ts";
import { OfflinePage } from "./OfflinePage.tsx";

function PageError(
  { error, offline, onRetry }: { error: unknown; offline: boolean; onRetry: () => void },
) {
  const { t } = useTranslation();
  const chunk = isChunkLoadError(error);
  if (chunk && offline) return <OfflinePage onRetry={onRetry} />;
  return (
    <section className="card status-page" role="alert" data-testid="page-error">
      <h1>{t(chunk ? "pwa.chunkError.title" : "pwa.pageError.title")}</h1>
      <p className="muted">{t(chunk ? "pwa.chunkError.body" : "pwa.pageError.body")}</p>
      <div className="status-page-actions">
        <button type="button" className="btn btn-primary" onClick={onRetry}>
          {t("pwa.chunkError.retry")}
        </button>
        <button type="button" className="btn" onClick={() => globalThis.location.reload()}>
          {t("pwa.chunkError.reload")}
        </button>
      </div>
    </section>
  );
}

type Props = { resetKey: string; children: ReactNode };
/** `offline`: the browser was offline when the page failed (kept until a retry). */
type State = { error: unknown; key: string; hasError: boolean; offline: boolean };

class Boundary extends Component<Props, State> {
  override state: State = {
    error: null,
    key: this.props.resetKey,
    hasError: false,
    offline: false,
  };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, hasError: true, offline: globalThis.navigator?.onLine === false };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.key
      ? null
      : { key: props.resetKey, error: null, hasError: false };
  }

  retry = () => {
    retryFailedPages();
    this.setState({ error: null, hasError: false });
  };

  override render() {
    if (this.state.hasError) {
      return (
        <PageError error={this.state.error} offline={this.state.offline} onRetry={this.retry} />
      );
    }
    return this.props.children;
  }
}

/** The error boundary around a page, reset on navigation. */
export function PageErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <Boundary resetKey={pathname}>{children}</Boundary>;
}
