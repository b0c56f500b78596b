/** A share's facts: remark, created, expiry, views and whether it has a password. */
import { useTranslation } from "react-i18next";
import type { PasteView } from "./pastes_api.ts";
import { ShareLifeFacts } from "../../components/ShareFacts.tsx";

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
        <ShareLifeFacts
          share={paste}
          local={local}
          texts="paste.meta"
          created="created"
          passwordBadge="badge"
        />
      </dl>
    </div>
  );
}
