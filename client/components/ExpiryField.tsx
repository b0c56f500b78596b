/**
 * The share expiry field: a labelled select of the presets 1 hour, 1 day, 7 days, 30 days and
 * never (docs/PRODUCT.md §9.1).
 */
import type { ComponentProps } from "react";
import { useTranslation } from "react-i18next";
import { SHARE_EXPIRY_PRESETS } from "../../shared/constants.ts";
import type { ExpiryPresetId } from "./share_form.ts";
import { SelectField } from "./FormField.tsx";

/** A preset, or "keep" to leave an existing share's expiry as it is. */
export type ExpiryChoice = ExpiryPresetId | "keep";

/** A SelectField of the expiry presets; the other attributes go to it. */
export function ExpiryField(
  { value, onChange, keepLabel, ...field }:
    & Omit<ComponentProps<typeof SelectField>, "value" | "onChange" | "children">
    & {
      value: ExpiryChoice;
      onChange: (value: ExpiryChoice) => void;
      /** When set, offers "keep" first with this text (editing). */
      keepLabel?: string;
    },
) {
  const { t } = useTranslation();
  return (
    <SelectField {...field} value={value} onChange={(v) => onChange(v as ExpiryChoice)}>
      {keepLabel && <option value="keep">{keepLabel}</option>}
      {SHARE_EXPIRY_PRESETS.map((p) => (
        <option key={p.id} value={p.id}>{t(`paste.expiry.${p.id}`)}</option>
      ))}
    </SelectField>
  );
}
