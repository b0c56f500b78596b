/**
 * The 7-day activity chart (docs/PRODUCT.md §2.3): text shares and file uploads per UTC day, as
 * bars or lines, drawn by chart.js through react-chartjs-2. Only the chart.js pieces these two
 * chart types need are registered. Screen readers get a summary on the canvas and the same
 * numbers as a visually hidden table.
 */
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  type ChartData,
  type ChartOptions,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from "chart.js";
import { Chart } from "react-chartjs-2";
import type { ActivityDay } from "./dashboard_api.ts";
import { useChartColors } from "./use_chart_colors.ts";

ChartJS.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Tooltip,
  Legend,
);

export type ChartKind = "bar" | "line";

/** A UTC day as a short label in the UI language, e.g. "5/14 Thu" or "5月14日周四". */
export function dayLabel(date: string, language: string): string {
  return new Intl.DateTimeFormat(language, {
    month: "numeric",
    day: "numeric",
    weekday: "short",
    timeZone: "UTC",
  }).format(new Date(`${date}T00:00:00Z`));
}

export function ActivityChart({ days, kind }: { days: ActivityDay[]; kind: ChartKind }) {
  const { t, i18n } = useTranslation();
  const colors = useChartColors();
  const labels = useMemo(() => days.map((d) => dayLabel(d.date, i18n.language)), [
    days,
    i18n.language,
  ]);
  const totals = days.reduce(
    (sum, d) => ({ pastes: sum.pastes + d.pastes, files: sum.files + d.files }),
    { pastes: 0, files: 0 },
  );
  const summary = t("dashboard.activity.summary", totals);

  const data = useMemo((): ChartData<ChartKind> | null => {
    if (!colors) return null;
    const series = [
      {
        label: t("dashboard.activity.pastes"),
        values: days.map((d) => d.pastes),
        color: colors.pastes,
      },
      {
        label: t("dashboard.activity.files"),
        values: days.map((d) => d.files),
        color: colors.files,
      },
    ];
    return {
      labels,
      datasets: series.map((s) => ({
        label: s.label,
        data: s.values,
        backgroundColor: kind === "bar" ? s.color : colors.surface,
        borderColor: s.color,
        borderWidth: 2,
        borderRadius: kind === "bar" ? 4 : 0,
        pointRadius: 4,
        pointBackgroundColor: s.color,
        cubicInterpolationMode: "monotone" as const,
      })),
    };
  }, [colors, days, kind, labels, t]);

  const options = useMemo((): ChartOptions<ChartKind> | null => {
    if (!colors) return null;
    const font = { family: colors.font };
    return {
      responsive: true,
      maintainAspectRatio: false,
      animation: colors.reducedMotion ? false : { duration: 300 },
      interaction: { mode: "index", intersect: false },
      plugins: {
        legend: { position: "bottom", labels: { color: colors.text, boxWidth: 12, font } },
        tooltip: { enabled: true },
      },
      scales: {
        x: { ticks: { color: colors.muted, font }, grid: { color: colors.grid } },
        y: {
          beginAtZero: true,
          ticks: { color: colors.muted, precision: 0, font },
          grid: { color: colors.grid },
        },
      },
    };
  }, [colors]);

  return (
    <figure className="dashboard-chart" data-chart-type={kind}>
      <div className="dashboard-chart-canvas">
        {data && options && (
          <Chart
            type={kind}
            data={data}
            options={options}
            datasetIdKey="label"
            role="img"
            aria-label={summary}
          />
        )}
      </div>
      {/* A table is as wide as its content, whatever its width says: the 1 px box wraps it. */}
      <div className="sr-only">
        <table>
          <caption>{t("dashboard.activity.tableCaption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("dashboard.activity.day")}</th>
              <th scope="col">{t("dashboard.activity.pastes")}</th>
              <th scope="col">{t("dashboard.activity.files")}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d, i) => (
              <tr key={d.date}>
                <th scope="row">{labels[i]}</th>
                <td>{d.pastes}</td>
                <td>{d.files}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
