/**
 * Uploads that ask first: the names a folder already holds are looked up (POST /api/fs/exists)
 * before any byte is sent, and the person chooses overwrite, skip or keep both for them
 * (ConflictDialog). The other files go at once, with "fail", so a name taken meanwhile is
 * refused (409 file_exists) rather than overwritten.
 */
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../components/toast.ts";
import { existingIn } from "./explorer_api.ts";
import { type ConflictChoice, ConflictDialog } from "./ConflictDialog.tsx";
import type { UploadConflict } from "./use_uploads.ts";

type Pending = { files: File[]; dir: string; taken: string[] };

/** `upload(files, dir)` and the dialog to render while it waits for an answer. */
export function useAskedUploads(
  uploads: { add: (files: File[], dir: string, onConflict?: UploadConflict) => void },
): { upload: (files: File[], dir: string) => Promise<void>; conflictDialog: ReactNode } {
  const { t } = useTranslation();
  const [pending, setPending] = useState<Pending | null>(null);

  const upload = async (files: File[], dir: string) => {
    let taken: string[] = [];
    try {
      taken = (await existingIn(dir, files.map((f) => f.name))).map((e) => e.name);
    } catch {
      // The upload itself refuses a taken name (409 file_exists) and says so.
    }
    if (taken.length === 0) uploads.add(files, dir);
    else setPending({ files, dir, taken });
  };

  const choose = (choice: ConflictChoice) => {
    if (!pending) return;
    const taken = new Set(pending.taken);
    const fresh = pending.files.filter((f) => !taken.has(f.name));
    if (fresh.length) uploads.add(fresh, pending.dir);
    const clashing = pending.files.filter((f) => taken.has(f.name));
    if (choice !== "skip") uploads.add(clashing, pending.dir, choice);
    else toast.info(t("explorer.conflict.skipped", { count: clashing.length }));
    setPending(null);
  };

  const conflictDialog = pending && (
    <ConflictDialog
      names={pending.taken}
      dir={pending.dir}
      onChoose={choose}
      onCancel={() => setPending(null)}
    />
  );
  return { upload, conflictDialog };
}
