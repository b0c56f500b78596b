/**
 * Copy to… (docs/PRODUCT.md §2.3, §5.4): pick a target folder by browsing (or typing its path) and
 * start a copy task. When the target already holds some of the names, the person chooses
 * overwrite, skip or keep both first (ConflictDialog). Copying a folder into itself or one of
 * its subfolders shows a warning and asks for confirmation first.
 */
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Modal } from "../../components/Modal.tsx";
import { errorText } from "../../api/errors.ts";
import { normalizePath } from "../../../shared/permissions.ts";
import {
  type CopyConflict,
  existingIn,
  type FsEntry,
  listFolder,
  startCopy,
  type TaskView,
} from "./explorer_api.ts";
import { ConflictDialog } from "./ConflictDialog.tsx";
import { copyTargets, foldersCopiedIntoThemselves, parentOf } from "./explorer_paths.ts";
import { KindIcon } from "./EntryIcon.tsx";
import { DialogButtons } from "../../components/DialogButtons.tsx";
import { FormAlert } from "../../components/FormAlert.tsx";

type Folder = { path: string; dirs: FsEntry[]; more: boolean; virtual: boolean } | null;

export function CopyDialog(
  { sources, startDir, onClose, onStarted }: {
    sources: FsEntry[];
    startDir: string;
    onClose: () => void;
    onStarted: (taskId: string, task?: TaskView) => void;
  },
) {
  const { t } = useTranslation();
  const [dir, setDir] = useState(startDir);
  const [typed, setTyped] = useState(startDir);
  const [folder, setFolder] = useState<Folder>(null);
  const [listError, setListError] = useState<string | null>(null);
  /** The names the target already holds, while the person chooses what to do with them. */
  const [taken, setTaken] = useState<string[] | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let alive = true;
    setFolder(null);
    setListError(null);
    setTyped(dir);
    listFolder(dir, { limit: 1000 }).then(
      (page) =>
        alive && setFolder({
          path: dir,
          dirs: page.items.filter((i) => i.type === "directory"),
          more: page.cursor !== null,
          virtual: page.is_virtual,
        }),
      (err) => alive && setListError(errorText(t, err)),
    );
    return () => {
      alive = false;
    };
  }, [dir, t]);

  const intoSelf = foldersCopiedIntoThemselves(sources, dir);
  const sameFolder = sources.some((s) => parentOf(s.path) === dir);
  const blocked = !folder || folder.virtual || sameFolder;

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (blocked || busy) return;
    if (intoSelf.length && !confirming) {
      setConfirming(true);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const there = await existingIn(dir, sources.map((s) => s.name));
      if (there.length > 0) {
        setTaken(there.map((e) => e.name));
        setBusy(false);
        return;
      }
    } catch (err) {
      setError(errorText(t, err));
      setBusy(false);
      return;
    }
    // Nothing there yet: a file that appears meanwhile is left alone.
    await begin("skip");
  };

  const begin = async (onConflict: CopyConflict) => {
    setTaken(null);
    setBusy(true);
    setError(null);
    try {
      const res = await startCopy(copyTargets(sources, dir), onConflict);
      onStarted(res.task_id, res.task);
    } catch (err) {
      setError(errorText(t, err));
      setBusy(false);
      setConfirming(false);
    }
  };

  const go = (e: FormEvent) => {
    e.preventDefault();
    const p = normalizePath(typed.trim() || "/");
    if (p === null) setListError(t("explorer.copy.badPath"));
    else {
      setConfirming(false);
      setDir(p);
    }
  };

  const names = sources.length === 1
    ? sources[0].name
    : t("explorer.copy.items", { n: sources.length });
  return (
    <Modal
      open
      onClose={onClose}
      size="medium"
      dismissible={!busy}
      title={t("explorer.copy.title", { names })}
      footer={confirming
        ? (
          <DialogButtons
            onCancel={() => setConfirming(false)}
            cancelLabel={t("common.back")}
            label={t("explorer.copy.anyway")}
            onConfirm={() => void submit()}
            disabled={busy}
            danger
          />
        )
        : (
          <DialogButtons
            onCancel={onClose}
            cancelDisabled={busy}
            label={t("explorer.copy.submit", { dir })}
            onConfirm={() => void submit()}
            disabled={blocked || busy}
            busy={busy}
          />
        )}
    >
      {confirming
        ? (
          <div className="alert alert-warning" role="alert">
            <p>{t("explorer.copy.intoSelf", { folders: intoSelf.join(", "), dir })}</p>
            <p>{t("explorer.copy.intoSelfAsk")}</p>
          </div>
        )
        : (
          <div className="copy-browser">
            <form className="input-group" onSubmit={go}>
              <label htmlFor="copy-target" className="sr-only">{t("explorer.copy.target")}</label>
              <input
                id="copy-target"
                className="input input-mono"
                value={typed}
                spellCheck={false}
                onChange={(e) => setTyped(e.currentTarget.value)}
              />
              <button type="submit" className="btn">{t("explorer.copy.go")}</button>
            </form>
            <ul className="copy-folders" aria-label={t("explorer.copy.folders", { dir })}>
              {dir !== "/" && (
                <li>
                  <button
                    type="button"
                    className="btn btn-ghost"
                    onClick={() => setDir(parentOf(dir))}
                  >
                    {t("explorer.copy.up")}
                  </button>
                </li>
              )}
              {folder?.dirs.map((d) => (
                <li key={d.path}>
                  <button type="button" className="btn btn-ghost" onClick={() => setDir(d.path)}>
                    <KindIcon kind={d.mount_id ? "mount" : "folder"} size={18} /> {d.name}
                  </button>
                </li>
              ))}
            </ul>
            {folder?.more && <p className="muted">{t("explorer.copy.more")}</p>}
            {listError && <p className="field-error" role="alert">{listError}</p>}
            {folder?.virtual && <p className="field-hint">{t("explorer.copy.virtual")}</p>}
            {sameFolder && !folder?.virtual && (
              <p className="field-hint">{t("explorer.copy.sameFolder")}</p>
            )}
          </div>
        )}
      <FormAlert text={error} />
      {taken && (
        <ConflictDialog
          names={taken}
          dir={dir}
          onChoose={(choice) => void begin(choice)}
          onCancel={() => setTaken(null)}
        />
      )}
    </Modal>
  );
}
