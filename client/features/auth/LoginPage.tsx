/**
 * The login page (docs/PRODUCT.md §2.2, §5.5): username and password, or an API key, in two tabs.
 * A user who is already logged in goes straight on: to the `redirect` query, else to their
 * first allowed module.
 */
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { Navigate, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../auth/auth_store.ts";
import { loginWithApiKey, loginWithPassword } from "../../auth/use_auth_actions.ts";
import { usePageTitle } from "../../app/use_page_title.ts";
import { errorText } from "../../api/errors.ts";
import { toast } from "../../components/toast.ts";
import { Tabs } from "../../components/Tabs.tsx";
import { InputField } from "../../components/FormField.tsx";
import { firstAllowedPath, safeRedirect } from "../../auth/admin_modules.ts";

const TABS = ["password", "apiKey"] as const;

/** /admin/login: the two login methods as tabs. */
export default function LoginPage() {
  const { t } = useTranslation();
  usePageTitle("pageTitle.login");
  const auth = useAuth();
  const [params] = useSearchParams();

  if (auth.authType !== "none") {
    return <Navigate to={safeRedirect(params.get("redirect")) ?? firstAllowedPath(auth)} replace />;
  }

  return (
    <section className="auth-page">
      <div className="card auth-card">
        <h1>{t("login.title")}</h1>
        <p className="muted">{t("login.subtitle")}</p>
        <Tabs
          ids={TABS}
          label={t("login.tabs.label")}
          tabLabel={(id) => t(`login.tabs.${id}`)}
          panel={(id) => id === "password" ? <PasswordForm /> : <ApiKeyForm />}
          panelClassName="tab-panel"
        />
      </div>
    </section>
  );
}

/** Shared submit state: busy flag, error text, and the success toast. */
function useSubmit() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      toast.success(t("login.success"));
      // The page re-renders as logged in and redirects; nothing else to do.
    } catch (err) {
      setError(errorText(t, err, "login_failed"));
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

/** A login form: its fields, the error of the last try, and the submit button. */
function LoginForm(
  { busy, error, onSubmit, children }: {
    busy: boolean;
    error: string | null;
    onSubmit: (e: FormEvent) => void;
    children: ReactNode;
  },
) {
  const { t } = useTranslation();
  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      {children}
      {error && <p className="form-error" role="alert">{error}</p>}
      <button type="submit" className="btn btn-primary btn-block" disabled={busy} aria-busy={busy}>
        {busy ? t("login.submitting") : t("login.submit")}
      </button>
    </form>
  );
}

function PasswordForm() {
  const { t } = useTranslation();
  const id = useId();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [touched, setTouched] = useState(false);
  const { busy, error, run } = useSubmit();
  const userMissing = touched && !username.trim();
  const passMissing = touched && !password;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!username.trim() || !password) return;
    void run(() => loginWithPassword(username.trim(), password));
  };

  return (
    <LoginForm busy={busy} error={error} onSubmit={onSubmit}>
      <InputField
        id={`${id}-user`}
        label={t("login.username")}
        name="username"
        autoComplete="username"
        value={username}
        onChange={setUsername}
        required
        error={userMissing ? t("login.required.username") : null}
      />
      <InputField
        id={`${id}-pass`}
        label={t("login.password")}
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        required
        error={passMissing ? t("login.required.password") : null}
      />
    </LoginForm>
  );
}

function ApiKeyForm() {
  const { t } = useTranslation();
  const id = useId();
  const [key, setKey] = useState("");
  const [touched, setTouched] = useState(false);
  const { busy, error, run } = useSubmit();
  const missing = touched && !key.trim();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!key.trim()) return;
    void run(() => loginWithApiKey(key.trim()));
  };

  return (
    <LoginForm busy={busy} error={error} onSubmit={onSubmit}>
      <InputField
        id={`${id}-key`}
        label={t("login.apiKey")}
        hint={t("login.apiKeyHint")}
        mono
        type="password"
        name="api-key"
        autoComplete="off"
        spellCheck={false}
        value={key}
        onChange={setKey}
        required
        error={missing ? t("login.required.apiKey") : null}
        errorLast
      />
    </LoginForm>
  );
}
