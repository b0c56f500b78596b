/**
 * The file basket and its pack download (docs/PRODUCT.md §2.3, §4.2, §8.5): the gathered entries;
 * "Prepare" walks folders (preparing) and shows the file count and total with a warning when it is
 * large or very large; "Download zip" streams the zip (each file pending, downloading, completed or
 * failed). Where the browser can save straight to disk, that is offered (and chosen by default for
 * large totals), since a Blob-saved zip is held in memory.
 */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../api/errors.ts";
import { toast } from "../../components/toast.ts";
import { formatBytes } from "../../lib/format.ts";
import { listFolder } from "./explorer_api.ts";
import { clearBasket, removeFromBasket, useBasket } from "./basket_store.ts";
import {
  type PackFileState,
  type PackPlan,
  packSizeLevel,
  type PackStatus,
  pickZipTarget,
  planPack,
  savePicker,
  saveZip,
  zipNameOf,
  zipPlan,
} from "./pack_download.ts";
import { CheckLabel } from "../../components/FormField.tsx";

type Pack = { status: PackStatus; plan: PackPlan | null; states: PackFileState[]; error?: unknown };

export function BasketPanel() {
  const { t } = useTranslation();
  const basket = useBasket();
  const [pack, setPack] = useState<Pack | null>(null);
  const [toDisk, setToDisk] = useState(false);
  // Whether the browser can save straight to disk, learnt after mounting (hydration-safe).
  const [canPick, setCanPick] = useState(false);
  useEffect(() => setCanPick(savePicker() !== null), []);
  const abort = useRef<AbortController | null>(null);
  const busy = pack?.status === "preparing" || pack?.status === "downloading";

  const prepare = async () => {
    if (!basket.length) {
      toast.error(t("explorer.basket.errors.empty"));
      return;
    }
    abort.current?.abort();
    const ctrl = new AbortController();
    abort.current = ctrl;
    setPack({ status: "preparing", plan: null, states: [] });
    try {
      const plan = await planPack(
        basket,
        (path, cursor) => listFolder(path, { cursor, signal: ctrl.signal }),
        ctrl.signal,
      );
      if (!plan.files.length && !plan.emptyFolders.length) {
        setPack(null);
        toast.error(t("explorer.basket.errors.noFiles"));
        return;
      }
      setToDisk(canPick && packSizeLevel(plan.totalBytes) !== "normal");
      setPack({ status: "ready", plan, states: plan.files.map(() => "pending") });
    } catch (err) {
      if (ctrl.signal.aborted) return;
      setPack({ status: "failed", plan: null, states: [], error: err });
    }
  };

  const download = async () => {
    if (!pack?.plan) return;
    const plan = pack.plan;
    const name = zipNameOf(basket);
    let target: WritableStream<Uint8Array> | null = null;
    if (toDisk) {
      try {
        target = await pickZipTarget(name);
      } catch {
        return; // The user closed the picker.
      }
    }
    const ctrl = new AbortController();
    abort.current = ctrl;
    const states: PackFileState[] = plan.files.map(() => "pending");
    setPack({ status: "downloading", plan, states: [...states] });
    const zip = zipPlan(plan, {
      signal: ctrl.signal,
      onFile: (i, s) => {
        states[i] = s;
        setPack((p) => (p ? { ...p, states: [...states] } : p));
      },
    });
    try {
      await saveZip(zip, name, target, ctrl.signal);
      if (!ctrl.signal.aborted) setPack({ status: "completed", plan, states: [...states] });
    } catch (err) {
      if (!ctrl.signal.aborted) {
        setPack({ status: "failed", plan, states: [...states], error: err });
      }
    }
  };

  const cancel = () => {
    abort.current?.abort();
    setPack(null);
  };

  const level = pack?.plan ? packSizeLevel(pack.plan.totalBytes) : "normal";
  const count = (s: PackFileState) => pack?.states.filter((x) => x === s).length ?? 0;
  const done = count("completed");
  const failed = count("failed");

  return (
    <section className="explorer-panel basket-panel" aria-label={t("explorer.basket.title")}>
      <header className="explorer-panel-head">
        <h2 className="explorer-panel-title">{t("explorer.basket.title")}</h2>
        {basket.length > 0 && !busy && (
          <button type="button" className="btn btn-small" onClick={clearBasket}>
            {t("explorer.basket.clear")}
          </button>
        )}
      </header>
      {basket.length === 0 && <p className="muted">{t("explorer.basket.empty")}</p>}
      {basket.length > 0 && (
        <ul className="basket-list">
          {basket.map((i) => (
            <li key={i.path} className="basket-item">
              <span className="entry-name" title={i.path}>
                {i.type === "directory" ? `${i.name}/` : i.name}
              </span>
              <span className="muted">{i.type === "file" ? formatBytes(i.size) : ""}</span>
              <button
                type="button"
                className="btn btn-small btn-ghost"
                disabled={busy}
                aria-label={t("explorer.basket.remove", { name: i.name })}
                onClick={() => removeFromBasket(i.path)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}

      <div className="basket-pack" aria-live="polite">
        {pack && (
          <p className="basket-status">
            <span className="badge">{t(`explorer.pack.status.${pack.status}`)}</span>{" "}
            {pack.plan && t("explorer.pack.summary", {
              files: pack.plan.files.length,
              size: formatBytes(pack.plan.totalBytes),
            })}
          </p>
        )}
        {pack?.plan && level !== "normal" && pack.status === "ready" && (
          <p className={`alert ${level === "veryLarge" ? "alert-error" : "alert-warning"}`}>
            {t(`explorer.pack.warning.${level}`, { size: formatBytes(pack.plan.totalBytes) })}
          </p>
        )}
        {pack?.status === "ready" && canPick && (
          <CheckLabel label={t("explorer.pack.toDisk")} checked={toDisk} onChange={setToDisk} />
        )}
        {pack?.plan && (pack.status === "downloading" || pack.status === "completed" ||
          pack.status === "failed") &&
          (
            <>
              <progress
                className="upload-progress"
                max={Math.max(1, pack.plan.files.length)}
                value={done + failed}
                aria-label={t("explorer.pack.progress")}
              />
              <p className="muted">
                {t("explorer.pack.counts", {
                  done,
                  failed,
                  total: pack.plan.files.length,
                })}
              </p>
              <ul className="pack-files">
                {pack.plan.files.map((f, i) => (
                  <li key={f.zipName} className={`pack-file pack-file-${pack.states[i]}`}>
                    <span className="entry-name">{f.zipName}</span>
                    <span className="muted">{t(`explorer.pack.file.${pack.states[i]}`)}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        {pack?.status === "failed" && (
          <p className="field-error" role="alert">
            {pack.plan ? t("explorer.basket.errors.zipFailed") : errorText(t, pack.error)}
          </p>
        )}
        <div className="basket-actions">
          {(!pack || pack.status === "completed" || pack.status === "failed") && (
            <button
              type="button"
              className="btn btn-primary"
              disabled={basket.length === 0}
              onClick={() => void prepare()}
            >
              {t("explorer.pack.prepare")}
            </button>
          )}
          {pack?.status === "ready" && (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => void download()}
            >
              {t("explorer.pack.download")}
            </button>
          )}
          {pack && pack.status !== "completed" && pack.status !== "failed" && (
            <button type="button" className="btn" onClick={cancel}>
              {t("common.cancel")}
            </button>
          )}
        </div>
      </div>
    </section>
  );
}
