/**
 * The explorer's dialogs and the actions behind them: new folder, rename, delete (confirmed),
 * copy to…, and the share link of a new file share. `useExplorerDialogs` holds which one is
 * open; `ExplorerDialogs` renders it and reports what changed so the listing can follow.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog, Modal } from "../../components/Modal.tsx";
import { CopyButton } from "../../components/CopyButton.tsx";
import { errorText } from "../../api/errors.ts";
import { toast } from "../../components/toast.ts";
import {
  type FsEntry,
  makeFolder,
  removeEntries,
  renameEntry,
  type TaskView,
} from "./explorer_api.ts";
import { joinPath, parentOf } from "./explorer_paths.ts";
import { NameDialog } from "./NameDialog.tsx";
import { CopyDialog } from "./CopyDialog.tsx";
import { forgetFileLinks } from "./use_file_link.ts";
import { CopyText } from "../../components/CopyText.tsx";
import { NewTabLink } from "../../components/NewTabLink.tsx";

export type DialogState =
  | { kind: "none" }
  | { kind: "mkdir" }
  | { kind: "rename"; entry: FsEntry }
  | { kind: "delete"; entries: FsEntry[] }
  | { kind: "copy"; entries: FsEntry[] }
  | { kind: "shared"; name: string; url: string };

export function useExplorerDialogs() {
  const [dialog, setDialog] = useState<DialogState>({ kind: "none" });
  return { dialog, open: setDialog, close: () => setDialog({ kind: "none" }) };
}

export type DialogEvents = {
  /** Entries now in the folder (new or renamed). */
  onAdded: (entries: FsEntry[]) => void;
  /** Paths gone from the folder. */
  onRemoved: (paths: string[]) => void;
  onCopyStarted: (taskId: string, task?: TaskView) => void;
};

export function ExplorerDialogs(
  { dialog, path, onClose, events }: {
    dialog: DialogState;
    path: string;
    onClose: () => void;
    events: DialogEvents;
  },
) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);

  const mkdir = async (name: string) => {
    const entry = await makeFolder(joinPath(path, name));
    toast.success(t("explorer.mkdir.done", { name }));
    events.onAdded([entry]);
    onClose();
  };

  const rename = (entry: FsEntry) => async (name: string) => {
    if (name === entry.name) return onClose();
    const target = joinPath(parentOf(entry.path), name);
    await renameEntry(entry.path, target);
    forgetFileLinks([entry.path]);
    toast.success(t("explorer.rename.done", { from: entry.name, to: name }));
    events.onRemoved([entry.path]);
    events.onAdded([{ ...entry, name, path: target }]);
    onClose();
  };

  const remove = async (entries: FsEntry[]) => {
    setBusy(true);
    try {
      const res = await removeEntries(entries.map((e) => e.path));
      const failed = new Set(res.failed.map((f) => f.path));
      const gone = entries.map((e) => e.path).filter((p) => !failed.has(p));
      forgetFileLinks(gone);
      events.onRemoved(gone);
      if (res.failed.length) {
        toast.error(t("explorer.delete.partial", {
          deleted: res.deleted,
          failed: res.failed.length,
          error: t(`errors.${res.failed[0].error}`, res.failed[0].error),
        }));
      } else toast.success(t("explorer.delete.done", { n: res.deleted }));
      onClose();
    } catch (err) {
      toast.error(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  switch (dialog.kind) {
    case "mkdir":
      return (
        <NameDialog
          title={t("explorer.mkdir.title")}
          label={t("explorer.mkdir.label")}
          submitLabel={t("explorer.mkdir.submit")}
          onSubmit={mkdir}
          onClose={onClose}
        />
      );
    case "rename":
      return (
        <NameDialog
          title={t("explorer.rename.title", { name: dialog.entry.name })}
          label={t("explorer.rename.label")}
          initial={dialog.entry.name}
          submitLabel={t("explorer.rename.submit")}
          onSubmit={rename(dialog.entry)}
          onClose={onClose}
        />
      );
    case "delete": {
      const n = dialog.entries.length;
      return (
        <ConfirmDialog
          open
          title={t("explorer.delete.title")}
          message={n === 1
            ? t(`explorer.delete.confirmOne.${dialog.entries[0].type}`, {
              name: dialog.entries[0].name,
            })
            : t("explorer.delete.confirmMany", { n })}
          confirmLabel={t("explorer.delete.submit")}
          danger
          busy={busy}
          onConfirm={() => void remove(dialog.entries)}
          onCancel={onClose}
        />
      );
    }
    case "copy":
      return (
        <CopyDialog
          sources={dialog.entries}
          startDir={path}
          onClose={onClose}
          onStarted={(id, task) => {
            onClose();
            events.onCopyStarted(id, task);
          }}
        />
      );
    case "shared":
      return (
        <Modal
          open
          onClose={onClose}
          size="small"
          title={t("explorer.share.title", { name: dialog.name })}
          footer={
            <button type="button" className="btn" onClick={onClose}>{t("common.close")}</button>
          }
        >
          <div className="input-group">
            <CopyText
              className="input-mono"
              value={dialog.url}
              aria-label={t("explorer.share.link")}
            />
            <CopyButton text={dialog.url} />
          </div>
          <p>
            <NewTabLink href={dialog.url}>
              {t("explorer.share.open")}
            </NewTabLink>
          </p>
        </Modal>
      );
    default:
      return null;
  }
}
