/**
 * "Download and decrypt" with its progress and outcome: the service worker streams the
 * plaintext to disk (e2e_save.ts), or, without one, small files are decrypted in memory.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../api/errors.ts";
import { formatBytes } from "../../lib/format.ts";
import type { OpenedFile } from "./e2e_open.ts";
import { cliCommand, MEMORY_SAVE_MAX } from "./e2e_limits.ts";

type Save =
  | { kind: "idle" }
  | { kind: "running"; percent: number }
  | { kind: "done" }
  | { kind: "failed"; message: string };

export function E2EDownloadButton({ opened, link }: { opened: OpenedFile; link: string }) {
  const { t } = useTranslation();
  const [save, setSave] = useState<Save>({ kind: "idle" });
  const start = async () => {
    setSave({ kind: "running", percent: 0 });
    try {
      const { saveDecrypted } = await import("./e2e_save.ts");
      await saveDecrypted(
        opened,
        (loaded, total) =>
          setSave({ kind: "running", percent: total > 0 ? Math.floor((loaded / total) * 100) : 0 }),
      );
      setSave({ kind: "done" });
    } catch (err) {
      const reason = (err as { reason?: string; problem?: string }).reason ??
        (err as { problem?: string }).problem;
      const message = reason === "too_large"
        ? t("e2e.file.tooLarge", {
          max: formatBytes(MEMORY_SAVE_MAX),
          command: cliCommand(link),
        })
        : reason === "integrity" || reason === "damaged" || reason === "format"
        ? t("e2e.file.downloadFailed")
        : errorText(t, err);
      setSave({ kind: "failed", message });
    }
  };
  return (
    <div className="e2e-download">
      <button
        type="button"
        className="btn btn-primary"
        onClick={() => void start()}
        disabled={save.kind === "running"}
        aria-busy={save.kind === "running"}
      >
        {t("e2e.file.download")}
      </button>
      <p className="muted" role="status">
        {save.kind === "running" && t("e2e.file.downloading", { percent: save.percent })}
        {save.kind === "done" && t("e2e.file.downloaded")}
      </p>
      {save.kind === "failed" && <p className="field-error" role="alert">{save.message}</p>}
    </div>
  );
}
