/** A share's facts: remark, created, expiry, views and whether it has a password. */
import { useTranslation } from "react-i18next";
import type { PasteView } from "./pastes_api.ts";
import { formatDateTime } from "./time.ts";

export function PasteMeta(
  { paste, local }: {
    paste: Pick<
      PasteView,
      "remark" | "created_at" | "expires_at" | "views" | "max_views" | "has_password"
    >;
    /** Format times in the visitor's zone (after hydration), else in UTC. */
    local: boolean;
  },
) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <div className="paste-meta">
      {paste.remark && (
        <p className="paste-remark">
          <span className="paste-meta-label">{t("paste.meta.remark")}</span> {paste.remark}
        </p>
      )}
      <dl className="paste-facts">
        <div>
          <dt>{t("paste.meta.created")}</dt>
          <dd>
            <time dateTime={paste.created_at}>
              {formatDateTime(paste.created_at, lang, local)}
            </time>
          </dd>
        </div>
        <div>
          <dt>{t("paste.meta.expires")}</dt>
          <dd>
            {paste.expires_at
              ? (
                <time dateTime={paste.expires_at}>
                  {formatDateTime(paste.expires_at, lang, local)}
                </time>
              )
              : t("paste.meta.never")}
          </dd>
        </div>
        <div>
          <dt>{t("paste.meta.views")}</dt>
          <dd>
            {paste.max_views > 0
              ? t("paste.meta.viewsOf", { views: paste.views, max: paste.max_views })
              : t("paste.meta.viewsUnlimited", { views: paste.views })}
          </dd>
        </div>
        {paste.has_password && (
          <div>
            <dt>{t("paste.meta.access")}</dt>
            <dd>
              <span className="badge">{t("paste.meta.passwordProtected")}</span>
            </dd>
          </div>
        )}
      </dl>
    </div>
  );
}
