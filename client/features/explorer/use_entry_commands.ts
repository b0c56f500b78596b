/**
 * What the context menu and the batch bar run: open, download (a signed link), add to the
 * basket, copy a direct link, create a share, and the dialogs for rename, copy and delete.
 */
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { errorText } from "../../api/errors.ts";
import { toast } from "../../components/toast.ts";
import { downloadUrl } from "../../lib/download.ts";
import { createShare, fileLink, type FsEntry } from "./explorer_api.ts";
import { addToBasket } from "./basket_store.ts";
import type { EntryCommands } from "./entry_menu.ts";
import type { DialogState } from "./ExplorerDialogs.tsx";

export function useEntryCommands(
  hrefOf: (e: FsEntry) => string,
  openDialog: (d: DialogState) => void,
): EntryCommands {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const failed = (err: unknown) => toast.error(errorText(t, err));
  return {
    open: (e) => navigate(hrefOf(e)),
    download: (e) => {
      fileLink(e.path, { download: true }).then(({ url }) => downloadUrl(url, e.name), failed);
    },
    basket: (list) => {
      const n = addToBasket(
        list.map((e) => ({ path: e.path, name: e.name, type: e.type, size: e.size })),
      );
      toast.success(n ? t("explorer.basket.added", { n }) : t("explorer.basket.already"));
    },
    copyLink: (e) => {
      fileLink(e.path)
        .then(({ url }) => navigator.clipboard.writeText(url))
        .then(() => toast.success(t("explorer.linkCopied")), failed);
    },
    share: (e) => {
      createShare(e.path).then(
        (view) => openDialog({ kind: "shared", name: e.name, url: view.url }),
        failed,
      );
    },
    rename: (e) => openDialog({ kind: "rename", entry: e }),
    copy: (list) => openDialog({ kind: "copy", entries: list }),
    remove: (list) => openDialog({ kind: "delete", entries: list }),
  };
}
