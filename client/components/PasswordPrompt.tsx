/**
 * A share's password prompt (a protected share, or an end-to-end encrypted one): title and
 * text, the field with its button, and the error at the field. It refuses an empty password
 * itself (`<texts>.empty`) and hands its owner the password to check.
 */
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";

export function PasswordPrompt(
  {
    id,
    titleId = `${id}-title`,
    rowClassName = `${id}-row`,
    texts,
    method,
    autoComplete,
    error,
    ready,
    busy,
    onSubmit,
  }: {
    /** The field's id; the form's class, and the ids of the error (`<id>-error`) and title. */
    id: string;
    titleId?: string;
    rowClassName?: string;
    /** The i18n prefix of `title`, `body`, `label`, `submit` and `empty`. */
    texts: string;
    /** "post" where a submit before hydration must not put the password in the URL. */
    method?: "post";
    autoComplete: string;
    /** The owner's error of the last try. */
    error: string | null;
    /** False until hydrated: the button waits for the script. */
    ready: boolean;
    busy: boolean;
    onSubmit: (password: string) => void;
  },
) {
  const { t } = useTranslation();
  const [value, setValue] = useState("");
  const [empty, setEmpty] = useState(false);
  const shown = empty ? t(`${texts}.empty`) : error;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!ready || busy) return;
    setEmpty(value === "");
    if (value !== "") onSubmit(value);
  };
  return (
    <form
      className={id}
      onSubmit={submit}
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
          onChange={(e) => setValue(e.currentTarget.value)}
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? `${id}-error` : undefined}
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
      {shown && <p id={`${id}-error`} className="field-error" role="alert">{shown}</p>}
    </form>
  );
}
