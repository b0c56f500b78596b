/**
 * The dashboard (`/admin/dashboard`, admin only; docs/PRODUCT.md §2.3): totals, storage used, the
 * 7-day activity chart with a bar/line switch, cache monitoring with "clear all", and per-bucket
 * usage. Everything comes from one call, GET /api/admin/dashboard/stats, answered from counters.
 */
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLoadedList } from "../../components/use_admin_list.ts";
import { usePageTitle } from "../../app/use_page_title.ts";
import { errorText } from "../../api/errors.ts";
import { toast } from "../../components/toast.ts";
import { Spinner } from "../../components/Spinner.tsx";
import { ConfirmDialog } from "../../components/Modal.tsx";
import { clearAllCaches, getDashboardStats } from "./dashboard_api.ts";
import { ActivityChart, type ChartKind } from "./ActivityChart.tsx";
import { TotalsGrid } from "./TotalsGrid.tsx";
import { CachePanel } from "./CachePanel.tsx";
import { BucketUsageList } from "./BucketUsageList.tsx";
import { RetryAlert } from "../../components/RetryAlert.tsx";
import { BackupAlert } from "./BackupAlert.tsx";
import { ToggleGroup } from "../../components/ToggleGroup.tsx";
import { PageHeader } from "../../components/PageHeader.tsx";

const KINDS: ChartKind[] = ["bar", "line"];

/** The bar/line switch: two toggle buttons in a labelled group. */
function ChartKindSwitch(
  { value, onChange }: { value: ChartKind; onChange: (k: ChartKind) => void },
) {
  const { t } = useTranslation();
  return (
    <ToggleGroup
      className="dashboard-segmented"
      label={t("dashboard.activity.chartType")}
      options={KINDS}
      value={value}
      onChange={onChange}
      optionLabel={(k) => t(`dashboard.activity.kinds.${k}`)}
    />
  );
}

/** A titled card of the dashboard, with an optional note under the title and tools beside it. */
function DashboardSection(
  { id, title, note, tools, children }: {
    id: string;
    title: string;
    note?: string;
    tools?: ReactNode;
    children: ReactNode;
  },
) {
  const heading = <h2 id={id}>{title}</h2>;
  return (
    <section className="card dashboard-section" aria-labelledby={id}>
      <header className="dashboard-section-head">
        {note
          ? (
            <div>
              {heading}
              <p className="muted dashboard-note">{note}</p>
            </div>
          )
          : heading}
        {tools}
      </header>
      {children}
    </section>
  );
}

export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  usePageTitle("pageTitle.dashboard");
  const { data: stats, error: loadError, loading, load } = useLoadedList(getDashboardStats);
  const [kind, setKind] = useState<ChartKind>("bar");
  const [confirming, setConfirming] = useState(false);
  const [clearing, setClearing] = useState(false);

  const onClear = async () => {
    setClearing(true);
    try {
      const res = await clearAllCaches();
      toast.success(t("dashboard.caches.cleared", { count: res.total }));
      setConfirming(false);
      await load();
    } catch (err) {
      toast.error(errorText(t, err));
      setConfirming(false);
    } finally {
      setClearing(false);
    }
  };

  const updated = stats
    ? new Intl.DateTimeFormat(i18n.language, { timeStyle: "medium" }).format(
      new Date(stats.generated_at),
    )
    : null;

  return (
    <section className="page dashboard-page" aria-busy={loading}>
      <PageHeader
        title={t("dashboard.title")}
        intro={
          <>
            {t("dashboard.description")}
            {updated && ` ${t("dashboard.updated", { time: updated })}`}
          </>
        }
        actions={
          <div className="page-actions">
            <button type="button" className="btn" onClick={() => void load()} disabled={loading}>
              {t("dashboard.refresh")}
            </button>
          </div>
        }
      />

      <BackupAlert />
      {loadError && <RetryAlert message={loadError} onRetry={() => void load()} />}
      {stats === null && !loadError && <Spinner />}

      {stats && (
        <>
          <TotalsGrid stats={stats} />

          <DashboardSection
            id="dashboard-activity"
            title={t("dashboard.activity.title")}
            note={t("dashboard.activity.note")}
            tools={<ChartKindSwitch value={kind} onChange={setKind} />}
          >
            <ActivityChart days={stats.activity} kind={kind} />
          </DashboardSection>

          <div className="dashboard-columns">
            <DashboardSection
              id="dashboard-caches"
              title={t("dashboard.caches.title")}
              note={t("dashboard.caches.note")}
              tools={
                <button
                  type="button"
                  className="btn btn-small btn-danger-outline"
                  onClick={() => setConfirming(true)}
                >
                  {t("dashboard.caches.clear")}
                </button>
              }
            >
              <CachePanel caches={stats.caches} />
            </DashboardSection>

            <DashboardSection
              id="dashboard-buckets"
              title={t("dashboard.buckets.title")}
              note={t("dashboard.buckets.note")}
            >
              <BucketUsageList buckets={stats.buckets} />
            </DashboardSection>
          </div>
        </>
      )}

      <ConfirmDialog
        open={confirming}
        title={t("dashboard.caches.confirmTitle")}
        message={t("dashboard.caches.confirm")}
        confirmLabel={t("dashboard.caches.clearSubmit")}
        danger
        busy={clearing}
        onConfirm={() => void onClear()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
