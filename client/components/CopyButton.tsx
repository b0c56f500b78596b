/** Copies text to the clipboard and says so. */
import { useState } from "react";
import { useTranslation } from "react-i18next";

export function CopyButton(
  { text, label, className }: { text: string; label?: string; className?: string },
) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const area = document.createElement("textarea");
      area.value = text;
      document.body.appendChild(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <button type="button" className={className ?? "btn"} onClick={copy}>
      {copied ? t("common.copied") : (label ?? t("common.copy"))}
    </button>
  );
}
