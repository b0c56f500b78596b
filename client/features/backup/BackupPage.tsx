/**
 * /admin/backup (docs/PRODUCT.md §2.1, admin only): create a backup of chosen modules as a JSON download,
 * restore one (a Cubby or a CloudPaste file) in overwrite or merge mode, and schedule backups to
 * a storage config.
 */
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../app/use_page_title.ts";
import { BackupCreatePanel } from "./BackupCreatePanel.tsx";
import { RestorePanel } from "./RestorePanel.tsx";
import { BackupSchedulePanel } from "./BackupSchedulePanel.tsx";
import { PageHeader } from "../../components/PageHeader.tsx";

/** The backup and restore screen. */
export default function BackupPage() {
  const { t } = useTranslation();
  usePageTitle("pageTitle.backup");
  return (
    <section className="page backup-page">
      <PageHeader title={t("backup.title")} intro={t("backup.description")} />
      <div className="backup-grid">
        <BackupCreatePanel />
        <RestorePanel />
      </div>
      <BackupSchedulePanel />
    </section>
  );
}
