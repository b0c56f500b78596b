/**
 * The "End-to-end encryption" switch of the editor and the upload page, with the one sentence
 * that says what it means (docs/E2E.md). Off by default; the screens own its value.
 */
import { useTranslation } from "react-i18next";
import { CheckField } from "../../components/FormField.tsx";

export function E2EToggle(
  { id, checked, onChange, disabled }: {
    id: string;
    checked: boolean;
    onChange: (on: boolean) => void;
    disabled?: boolean;
  },
) {
  const { t } = useTranslation();
  return (
    <CheckField
      id={id}
      className="e2e-toggle"
      label={t("e2e.toggle.label")}
      hint={t("e2e.toggle.hint")}
      checked={checked}
      disabled={disabled}
      onChange={onChange}
    />
  );
}
