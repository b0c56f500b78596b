/**
 * The environment switcher (docs/PRODUCT.md §2.2): for admins only, and only when the page's query
 * has `showEnvSwitcher`. It sets the API base URL the client uses (localStorage `cubby.apiBase`,
 * read by apiBase() in api/client.ts) and reloads. A runtime config (`__CUBBY_CONFIG__`) takes
 * precedence over the stored value, which the panel says.
 */
import { type FormEvent, useEffect, useId, useState } from "react";
import { useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { useAuth } from "../auth/auth_store.ts";
import { apiBase } from "../api/client.ts";
import { InputField } from "./FormField.tsx";

export const API_BASE_STORAGE_KEY = "cubby.apiBase";

/** An absolute http(s) URL without a trailing slash, "" for this site, or null if invalid. */
export function normalizeApiBase(value: string): string | null {
  const v = value.trim().replace(/\/+$/, "");
  if (v === "") return "";
  try {
    const url = new URL(v);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (url.search || url.hash) return null;
    return v;
  } catch {
    return null;
  }
}

function EnvSwitcherPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [value, setValue] = useState(
    () => globalThis.localStorage?.getItem(API_BASE_STORAGE_KEY) ?? "",
  );
  const [error, setError] = useState(false);
  const runtime = (globalThis as { __CUBBY_CONFIG__?: { apiBase?: string } }).__CUBBY_CONFIG__
    ?.apiBase;
  const current = apiBase() || globalThis.location.origin;

  const save = (next: string) => {
    if (next) globalThis.localStorage.setItem(API_BASE_STORAGE_KEY, next);
    else globalThis.localStorage.removeItem(API_BASE_STORAGE_KEY);
    globalThis.location.reload();
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const next = normalizeApiBase(value);
    if (next === null) {
      setError(true);
      return;
    }
    save(next);
  };

  return (
    <aside className="env-switcher card" aria-labelledby={`${id}-title`}>
      <div className="env-switcher-head">
        <h2 id={`${id}-title`}>{t("settings.envSwitcher.title")}</h2>
        <button
          type="button"
          className="btn btn-ghost btn-icon btn-small"
          aria-label={t("settings.envSwitcher.hide")}
          onClick={onClose}
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <p className="muted">
        {t("settings.envSwitcher.current")} <code>{current}</code>
      </p>
      {runtime !== undefined && (
        <p className="field-hint">{t("settings.envSwitcher.runtimeOverride")}</p>
      )}
      <form className="form" onSubmit={onSubmit} noValidate>
        <InputField
          id={`${id}-url`}
          label={t("settings.envSwitcher.label")}
          type="url"
          inputMode="url"
          placeholder={globalThis.location.origin}
          value={value}
          onChange={(next) => {
            setValue(next);
            setError(false);
          }}
          error={error ? t("settings.envSwitcher.invalid") : null}
          hint={t("settings.envSwitcher.hint")}
        />
        <div className="page-actions">
          <button type="submit" className="btn btn-primary btn-small">
            {t("settings.envSwitcher.apply")}
          </button>
          <button type="button" className="btn btn-small" onClick={() => save("")}>
            {t("settings.envSwitcher.reset")}
          </button>
        </div>
      </form>
    </aside>
  );
}

/** The switcher panel, when an admin opened the page with `?showEnvSwitcher`. */
export function EnvSwitcher() {
  const auth = useAuth();
  const { search } = useLocation();
  const [mounted, setMounted] = useState(false);
  const [hidden, setHidden] = useState(false);
  useEffect(() => setMounted(true), []);
  const show = mounted && !hidden && auth.authType === "admin" &&
    new URLSearchParams(search).has("showEnvSwitcher");
  return show ? <EnvSwitcherPanel onClose={() => setHidden(true)} /> : null;
}
