/**
 * What an encrypted share page (paste or file) shows until the share is open: a spinner while it
 * opens, the password form, or why it stays closed (with Retry after a failure). Nothing once it
 * is open: the page shows the share.
 */
import { Spinner } from "../../components/Spinner.tsx";
import { E2EPasswordForm } from "./E2EPasswordForm.tsx";
import { E2EProblem } from "./E2EProblem.tsx";
import type { useE2EOpen } from "./use_e2e_open.ts";

export function E2EOpening<T>(
  { opening, ready, className, text }: {
    opening: ReturnType<typeof useE2EOpen<T>>;
    /** False on the server and while hydrating: the password form waits. */
    ready: boolean;
    /** The class of the spinner's box, and its text. */
    className: string;
    text: string;
  },
) {
  const { state, submitPassword, retry } = opening;
  return (
    <>
      {(state.kind === "start" || state.kind === "opening") && (
        <div className={className}>
          <Spinner />
          <p className="muted">{text}</p>
        </div>
      )}
      {state.kind === "password" && (
        <E2EPasswordForm
          ready={ready}
          busy={state.busy}
          error={state.error}
          onSubmit={submitPassword}
        />
      )}
      {state.kind === "problem" && <E2EProblem problem={state.problem} />}
      {state.kind === "failed" && <E2EProblem message={state.message} onRetry={retry} />}
    </>
  );
}
