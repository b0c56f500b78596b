/**
 * Gallery settings (docs/PRODUCT.md §2.3): columns, horizontal and vertical spacing, images only,
 * and sort by name, size, date or type (the sort applies to every view). Saved in localStorage.
 */
import { useId } from "react";
import { useTranslation } from "react-i18next";
import {
  COLUMNS_MAX,
  COLUMNS_MIN,
  DEFAULT_GALLERY,
  type GallerySettings,
  GAP_MAX,
  SORT_KEYS,
  type SortKey,
} from "./view_settings.ts";
import { CheckLabel } from "../../components/FormField.tsx";

export function GallerySettingsPanel(
  { settings, onChange }: { settings: GallerySettings; onChange: (s: GallerySettings) => void },
) {
  const { t } = useTranslation();
  const id = useId();
  const set = <K extends keyof GallerySettings>(k: K, v: GallerySettings[K]) =>
    onChange({ ...settings, [k]: v });
  const range = (k: "columns" | "gapX" | "gapY", min: number, max: number, unit = "") => (
    <div className="field gallery-range">
      <label htmlFor={`${id}-${k}`}>
        {t(`explorer.gallery.${k}`)}: <output htmlFor={`${id}-${k}`}>{settings[k]}{unit}</output>
      </label>
      <input
        id={`${id}-${k}`}
        type="range"
        min={min}
        max={max}
        step={1}
        value={settings[k]}
        onChange={(e) => set(k, Number(e.currentTarget.value))}
      />
    </div>
  );
  return (
    <section className="explorer-panel gallery-settings" aria-label={t("explorer.gallery.title")}>
      <h2 className="explorer-panel-title">{t("explorer.gallery.title")}</h2>
      <div className="gallery-settings-grid">
        {range("columns", COLUMNS_MIN, COLUMNS_MAX)}
        {range("gapX", 0, GAP_MAX, " px")}
        {range("gapY", 0, GAP_MAX, " px")}
        <div className="field">
          <label htmlFor={`${id}-sort`}>{t("explorer.gallery.sortBy")}</label>
          <div className="input-group">
            <select
              id={`${id}-sort`}
              className="input"
              value={settings.sortBy}
              onChange={(e) =>
                set("sortBy", e.currentTarget.value as SortKey)}
            >
              {SORT_KEYS.map((k) => <option key={k} value={k}>{t(`explorer.sort.${k}`)}</option>)}
            </select>
            <select
              className="input"
              aria-label={t("explorer.gallery.order")}
              value={settings.sortDesc ? "desc" : "asc"}
              onChange={(e) =>
                set("sortDesc", e.currentTarget.value === "desc")}
            >
              <option value="asc">{t("explorer.sort.asc")}</option>
              <option value="desc">{t("explorer.sort.desc")}</option>
            </select>
          </div>
        </div>
        <CheckLabel
          label={t("explorer.gallery.imagesOnly")}
          checked={settings.imagesOnly}
          onChange={(v) => set("imagesOnly", v)}
        />
        <button type="button" className="btn btn-small" onClick={() => onChange(DEFAULT_GALLERY)}>
          {t("explorer.gallery.reset")}
        </button>
      </div>
    </section>
  );
}
