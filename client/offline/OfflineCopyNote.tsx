/** The note above a share or listing shown from the offline store instead of the server. */
import { useTranslation } from "react-i18next";

export function OfflineCopyNote({ savedAt }: { savedAt: number }) {
  const { t, i18n } = useTranslation();
  const time = new Date(savedAt).toLocaleString(i18n.language);
  return (
    <p className="offline-copy-note" role="note" data-testid="offline-copy">
      {t("offlineData.copy.note", { time })}
    </p>
  );
}
