/** Runs a config's connection test and lists each step with ✓ or ✗, its message and time. */
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { useLoadedList } from "../../components/use_admin_list.ts";
import { Modal } from "../../components/Modal.tsx";
import { type StorageConfigView, testStorageConfig } from "./storage_api.ts";

export function StorageTestDialog(
  { config, onClose }: { config: StorageConfigView; onClose: () => void },
) {
  const { t } = useTranslation();
  const test = useCallback(() => testStorageConfig(config.id), [config.id]);
  const { data, error, loading: running, load: run } = useLoadedList(test);
  // A new run hides the last one's steps.
  const result = running ? null : data;

  return (
    <Modal
      open
      onClose={onClose}
      title={t("storage.test.title", { name: config.name })}
      footer={
        <>
          <button type="button" className="btn" onClick={() => void run()} disabled={running}>
            {t("storage.test.again")}
          </button>
          <button type="button" className="btn btn-primary" onClick={onClose}>
            {t("common.close")}
          </button>
        </>
      }
    >
      <div aria-live="polite" aria-busy={running}>
        {running && <div className="spinner" role="status">{t("storage.test.running")}</div>}
        {error && <p className="form-error" role="alert">{error}</p>}
        {result && (
          <>
            <p
              className={`storage-test-summary ${
                result.ok ? "storage-test-summary-ok" : "storage-test-summary-fail"
              }`}
              role={result.ok ? "status" : "alert"}
            >
              {result.ok ? t("storage.test.allPassed") : t("storage.test.someFailed")}
            </p>
            <ol className="storage-test-steps">
              {result.steps.map((s, i) => (
                <li
                  key={`${s.step}-${i}`}
                  className={`storage-test-step ${s.ok ? "storage-test-ok" : "storage-test-fail"}`}
                >
                  <span className="storage-test-icon" aria-hidden="true">{s.ok ? "✓" : "✗"}</span>
                  <span className="storage-test-name">
                    {t(`storage.test.steps.${s.step}`, { defaultValue: s.step })}
                    <span className="sr-only">
                      {": "}
                      {s.ok ? t("storage.test.passed") : t("storage.test.failed")}
                    </span>
                  </span>
                  <span className="storage-test-ms muted">
                    {t("storage.test.ms", { ms: s.ms })}
                  </span>
                  {s.message && <span className="storage-test-message">{s.message}</span>}
                </li>
              ))}
            </ol>
          </>
        )}
      </div>
    </Modal>
  );
}
