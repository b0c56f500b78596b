/**
 * The markup of a share's password prompt (a protected share, or an end-to-end encrypted one):
 * title and text, the field with its button, and the error at the field. Its owner holds the
 * value, checks it and submits.
 */
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";

export function PasswordPrompt(
  {
    id,
    titleId = `${id}-title`,
    rowClassName = `${id}-row`,
    texts,
    method,
    autoComplete,
    value,
    onChange,
    error,
    ready,
    busy,
    onSubmit,
  }: {
    /** The field's id; the form's class, and the ids of the error (`<id>-error`) and title. */
    id: string;
    titleId?: string;
    rowClassName?: string;
    /** The i18n prefix of `title`, `body`, `label` and `submit`. */
    texts: string;
    /** "post" where a submit before hydration must not put the password in the URL. */
    method?: "post";
    autoComplete: string;
    value: string;
    onChange: (value: string) => void;
    error: string | null;
    /** False until hydrated: the button waits for the script. */
    ready: boolean;
    busy: boolean;
    onSubmit: (e: FormEvent) => void;
  },
) {
  const { t } = useTranslation();
  return (
    <form
      className={id}
      onSubmit={onSubmit}
      method={method}
      noValidate
      aria-labelledby={titleId}
    >
      <h2 id={titleId}>{t(`${texts}.title`)}</h2>
      <p className="muted">{t(`${texts}.body`)}</p>
      <div className={rowClassName}>
        <label htmlFor={id}>{t(`${texts}.label`)}</label>
        <input
          id={id}
          className="input"
          type="password"
          autoComplete={autoComplete}
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          autoFocus
        />
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!ready || busy}
          aria-busy={busy}
        >
          {t(`${texts}.submit`)}
        </button>
      </div>
      {error && <p id={`${id}-error`} className="field-error" role="alert">{error}</p>}
    </form>
  );
}
