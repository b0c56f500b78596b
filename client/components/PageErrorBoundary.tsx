/**
 * Catches a page that fails to render, most often a lazy chunk that cannot load (offline, or
 * after a redeploy), and shows a recoverable message with retry and reload instead of an
 * empty page. It resets itself when the route changes.
 */
import { Component, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { isChunkLoadError, retryFailedPages } from "../app/lazy_page.ts";

function PageError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const chunk = isChunkLoadError(error);
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
type State = { error: unknown; key: string; hasError: boolean };

class Boundary extends Component<Props, State> {
  override state: State = { error: null, key: this.props.resetKey, hasError: false };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, hasError: true };
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
    if (this.state.hasError) return <PageError error={this.state.error} onRetry={this.retry} />;
    return this.props.children;
  }
}

/** The error boundary around a page, reset on navigation. */
export function PageErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <Boundary resetKey={pathname}>{children}</Boundary>;
}
