/**
 * The explorer's toolbar: upload and new folder (with the upload bit, inside a mount), refresh,
 * the view switch, the gallery settings, and the basket and task manager toggles with counts.
 */
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { VIEW_MODES, type ViewMode } from "./view_settings.ts";
import { ToggleGroup } from "../../components/ToggleGroup.tsx";

export type PanelId = "settings" | "basket" | "tasks";

export function ExplorerToolbar(
  {
    canWrite,
    writeShown,
    view,
    onView,
    onUpload,
    onMkdir,
    onRefresh,
    refreshing,
    panel,
    onPanel,
    basketCount,
    activeTasks,
  }: {
    /** Upload and new folder are possible here. */
    canWrite: boolean;
    /** Upload and new folder are shown (disabled until `canWrite`, while the folder loads). */
    writeShown: boolean;
    view: ViewMode;
    onView: (v: ViewMode) => void;
    onUpload: (files: File[]) => void;
    onMkdir: () => void;
    onRefresh: () => void;
    refreshing: boolean;
    panel: PanelId | null;
    onPanel: (p: PanelId | null) => void;
    basketCount: number;
    activeTasks: number;
  },
) {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  const toggle = (p: PanelId) => onPanel(panel === p ? null : p);
  const panelButtons: [PanelId, string][] = [
    ["settings", t("explorer.gallery.title")],
    ["basket", t("explorer.basket.button", { n: basketCount })],
    [
      "tasks",
      activeTasks > 0
        ? t("explorer.tasks.buttonActive", { active: activeTasks })
        : t("explorer.tasks.button"),
    ],
  ];
  return (
    <div className="explorer-toolbar" role="toolbar" aria-label={t("explorer.toolbar")}>
      {writeShown && (
        <>
          <input
            ref={fileInput}
            type="file"
            multiple
            className="sr-only"
            tabIndex={-1}
            aria-label={t("explorer.upload.input")}
            onChange={(e) => {
              const files = [...(e.currentTarget.files ?? [])];
              e.currentTarget.value = "";
              if (files.length) onUpload(files);
            }}
          />
          <button
            type="button"
            className="btn btn-primary"
            disabled={!canWrite}
            onClick={() => fileInput.current?.click()}
          >
            {t("explorer.upload.button")}
          </button>
          <button type="button" className="btn" disabled={!canWrite} onClick={onMkdir}>
            {t("explorer.mkdir.button")}
          </button>
        </>
      )}
      <button
        type="button"
        className="btn"
        onClick={onRefresh}
        disabled={refreshing}
        aria-busy={refreshing || undefined}
      >
        {t("explorer.refresh")}
      </button>
      <ToggleGroup
        className="explorer-view-switch"
        label={t("explorer.view.label")}
        options={VIEW_MODES}
        value={view}
        onChange={onView}
        optionLabel={(m) => t(`explorer.view.${m}`)}
        highlight
      />
      <span className="explorer-toolbar-spacer" />
      {panelButtons.map(([id, label]) => (
        <button
          key={id}
          type="button"
          className="btn btn-small"
          aria-expanded={panel === id}
          onClick={() => toggle(id)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
