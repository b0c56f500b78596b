/**
 * The opening of an end-to-end encrypted share page, as a state: at once after hydration when
 * no password is mixed in, else after the password form. Opening counts a view, so it runs once
 * per attempt (a guard, not an effect cleanup). The decryption code (e2e_open.ts) is loaded by
 * the caller's `open`, never during hydration.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client.ts";
import { errorText } from "../../api/errors.ts";
import type { E2EDescriptor } from "../../../shared/e2e/descriptor.ts";
import type { E2EProblem } from "./e2e_open.ts";

export type E2EOpenState<T> =
  /** Server render and hydration: nothing known yet. */
  | { kind: "start" }
  | { kind: "password"; busy: boolean; error: string | null }
  | { kind: "opening" }
  | { kind: "ready"; value: T }
  /** A problem the page explains (no key, wrong key, damaged data…). */
  | { kind: "problem"; problem: E2EProblem }
  /** Another failure (network, 429): its text, with a retry. */
  | { kind: "failed"; message: string };

/** A fragment holding a link key: `#` and 43 base64url characters (shared/e2e/keys.ts). */
const KEY_FRAGMENT = /^#[A-Za-z0-9_-]{43}$/;

/** The problem of an E2EOpenError (from the lazily loaded module), else null. */
function problemOf(err: unknown): E2EProblem | null {
  return err instanceof Error && err.name === "E2EOpenError"
    ? (err as Error & { problem: E2EProblem }).problem
    : null;
}

/** True for the errors that end a share's page: it is not found, or has expired. */
function isGone(kind: "file" | "paste", err: unknown): err is ApiError {
  return err instanceof ApiError &&
    (err.code === `${kind}_not_found` || err.code === `${kind}_expired`);
}

/**
 * Opens the `kind` share with `open(fragment, password)`. A share that is not found or has
 * expired ends the page: `onGone` takes that error.
 */
export function useE2EOpen<T>(
  kind: "file" | "paste",
  descriptor: E2EDescriptor,
  open: (hash: string, password: string | null) => Promise<T>,
  onGone: (err: ApiError) => void,
) {
  const { t } = useTranslation();
  const [state, setState] = useState<E2EOpenState<T>>({ kind: "start" });
  const running = useRef(false);

  const attempt = useCallback(async (password: string | null) => {
    if (running.current) return;
    running.current = true;
    setState(
      password === null ? { kind: "opening" } : { kind: "password", busy: true, error: null },
    );
    try {
      setState({ kind: "ready", value: await open(globalThis.location.hash, password) });
    } catch (err) {
      const problem = problemOf(err);
      if (problem === "wrongPassword") {
        setState({ kind: "password", busy: false, error: t("e2e.errors.wrongPassword") });
      } else if (problem) setState({ kind: "problem", problem });
      else if (isGone(kind, err)) onGone(err);
      else setState({ kind: "failed", message: errorText(t, err) });
    } finally {
      running.current = false;
    }
  }, [kind, open, onGone, t]);

  useEffect(() => {
    if (state.kind !== "start") return;
    // A link without its key is told at once, before any password is asked.
    const hash = globalThis.location.hash;
    if (hash.length <= 1) setState({ kind: "problem", problem: "noKey" });
    else if (!KEY_FRAGMENT.test(hash)) setState({ kind: "problem", problem: "badKey" });
    else if (descriptor.has_password) setState({ kind: "password", busy: false, error: null });
    else void attempt(null);
  }, [state.kind, descriptor.has_password, attempt]);

  // A link pasted over this one that differs only after the # does not reload the page.
  useEffect(() => {
    const restart = () => {
      if (!running.current) setState({ kind: "start" });
    };
    globalThis.addEventListener("hashchange", restart);
    return () => globalThis.removeEventListener("hashchange", restart);
  }, []);

  const retry = () =>
    descriptor.has_password
      ? setState({ kind: "password", busy: false, error: null })
      : void attempt(null);
  return { state, submitPassword: (pw: string) => void attempt(pw), retry };
}
