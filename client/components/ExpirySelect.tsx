/**
 * The share expiry picker: presets 1 hour, 1 day, 7 days, 30 days, never (docs/PRODUCT.md §9.1).
 */
import { useTranslation } from "react-i18next";
import { SHARE_EXPIRY_PRESETS } from "../../shared/constants.ts";
import type { ExpiryPresetId } from "./share_form.ts";

/** A preset, or "keep" to leave an existing share's expiry as it is. */
export type ExpiryChoice = ExpiryPresetId | "keep";

export function ExpirySelect(
  { id, value, onChange, keepLabel, disabled }: {
    id: string;
    value: ExpiryChoice;
    onChange: (value: ExpiryChoice) => void;
    /** When set, offers "keep" first with this text (editing). */
    keepLabel?: string;
    disabled?: boolean;
  },
) {
  const { t } = useTranslation();
  return (
    <select
      id={id}
      className="input"
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.currentTarget.value as ExpiryChoice)}
    >
      {keepLabel && <option value="keep">{keepLabel}</option>}
      {SHARE_EXPIRY_PRESETS.map((p) => (
        <option key={p.id} value={p.id}>{t(`paste.expiry.${p.id}`)}</option>
      ))}
    </select>
  );
}
