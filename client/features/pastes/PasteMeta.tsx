/** A share's facts: remark, created, expiry, views and whether it has a password. */
import { useTranslation } from "react-i18next";
import type { PasteView } from "./pastes_api.ts";
import { Fact, ShareTime } from "../../components/ShareFacts.tsx";

export function PasteMeta(
  { paste, local }: {
    paste: Pick<
      PasteView,
      "remark" | "created_at" | "expires_at" | "views" | "max_views" | "has_password" | "own_view"
    >;
    /** Format times in the visitor's zone (after hydration), else in UTC. */
    local: boolean;
  },
) {
  const { t } = useTranslation();
  return (
    <div className="paste-meta">
      {paste.remark && (
        <p className="paste-remark">
          <span className="paste-meta-label">{t("paste.meta.remark")}</span> {paste.remark}
        </p>
      )}
      <dl className="paste-facts">
        <Fact term={t("paste.meta.created")}>
          <ShareTime iso={paste.created_at} local={local} />
        </Fact>
        <Fact term={t("paste.meta.expires")}>
          <ShareTime iso={paste.expires_at} local={local} never={t("paste.meta.never")} />
        </Fact>
        <Fact term={t("paste.meta.views")}>
          {paste.max_views > 0
            ? t("paste.meta.viewsOf", { views: paste.views, max: paste.max_views })
            : t("paste.meta.viewsUnlimited", { views: paste.views })}
          {paste.own_view && <span className="fact-note">{t("paste.meta.ownView")}</span>}
        </Fact>
        {paste.has_password && (
          <Fact term={t("paste.meta.access")}>
            <span className="badge">{t("paste.meta.passwordProtected")}</span>
          </Fact>
        )}
      </dl>
    </div>
  );
}
