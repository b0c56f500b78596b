/** A key user's own key: name, id, base path, permissions and expiry (read-only). */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../auth/auth_store.ts";
import { api } from "../../api/client.ts";
import type { ApiKeyTestReply } from "../../auth/use_auth_actions.ts";
import { maskToPermissions, PERMISSION_KEYS } from "../../../shared/permissions.ts";
import { formatDateTime } from "../../lib/format.ts";
import { Spinner } from "../../components/Spinner.tsx";

/** Read-only details of the key in use, refreshed from GET /test/api-key. */
export function KeyAccountInfo() {
  const { t, i18n } = useTranslation();
  const auth = useAuth();
  const [details, setDetails] = useState<ApiKeyTestReply | null>(null);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    let live = true;
    api<ApiKeyTestReply>("/test/api-key")
      .then((d) => live && setDetails(d))
      .catch(() => {/* fall back to what the store knows */})
      .finally(() => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, []);

  if (!loaded) return <Spinner />;
  const info = details?.key_info ?? auth.keyInfo;
  const perms = details?.permissions ?? maskToPermissions(auth.permissions);
  const expires = details ? details.expires_at : undefined;

  return (
    <div className="card account-card">
      <h2>{t("account.key.heading")}</h2>
      <p className="muted">{t("account.key.description")}</p>
      <dl className="details">
        <dt>{t("account.key.name")}</dt>
        <dd>{info?.name ?? "—"}</dd>
        <dt>{t("account.key.id")}</dt>
        <dd>
          <code>{info?.id ?? "—"}</code>
        </dd>
        <dt>{t("account.key.basePath")}</dt>
        <dd>
          <code>{info?.basic_path ?? "/"}</code>
        </dd>
        <dt>{t("account.key.expires")}</dt>
        <dd>
          {expires === undefined
            ? "—"
            : formatDateTime(expires, i18n.language, t("account.key.never"))}
        </dd>
        {details?.is_guest && (
          <>
            <dt>{t("account.key.guest")}</dt>
            <dd>{t("common.yes")}</dd>
          </>
        )}
      </dl>
      <h3>{t("account.key.permissions")}</h3>
      <ul className="permission-list">
        {PERMISSION_KEYS.map((k) => (
          <li key={k} className={perms[k] ? "granted" : "denied"}>
            <span aria-hidden="true">{perms[k] ? "✓" : "✕"}</span>
            <span>{t(`keys.permissions.${k}`)}</span>
            <span className="sr-only">
              {perms[k] ? t("account.key.granted") : t("account.key.denied")}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
