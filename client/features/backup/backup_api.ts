/**
 * The backup calls (server/routes/backup.ts). A backup answers the file itself rather than the
 * JSON envelope, so it is fetched here directly; everything else goes through api().
 */
import { api, apiBase, ApiError } from "../../api/client.ts";
import { authHeader, clearAuth, getAuth } from "../../auth/auth_store.ts";
import { downloadBlob } from "../../lib/download.ts";
import type {
  BackupInfo,
  BackupModule,
  RestoreMode,
  RestoreReport,
  RestoreStatus,
} from "../../../shared/schemas/backup.ts";
import { filenameFrom } from "./backup_modules.ts";

export type { BackupInfo, RestoreMode, RestoreReport, RestoreStatus };

/** A large backup or restore may take minutes. */
const LONG_TIMEOUT_MS = 10 * 60_000;

/** Builds a backup of the modules; resolves to the file and its name. Throws ApiError. */
export async function downloadBackup(
  modules: BackupModule[],
): Promise<{ blob: Blob; filename: string }> {
  const sentAuth = authHeader(getAuth());
  const timeout = AbortSignal.timeout(LONG_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(`${apiBase()}/api/admin/backup/create`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        ...(sentAuth ? { Authorization: sentAuth } : {}),
      },
      body: JSON.stringify({ modules }),
      signal: timeout,
    });
  } catch {
    throw new ApiError(timeout.aborted ? "request_timeout" : "network_error", 0, null);
  }
  if (!res.ok) {
    const body = await res.json().catch(() => null) as
      | { error?: string; message?: string; data?: unknown }
      | null;
    if (res.status === 401 && sentAuth) {
      clearAuth("session_expired");
      throw new ApiError("session_expired", 401, null);
    }
    throw new ApiError(
      body?.error ?? "backup_failed",
      res.status,
      body?.message ?? null,
      body?.data,
    );
  }
  return { blob: await res.blob(), filename: filenameFrom(res.headers.get("content-disposition")) };
}

/** Hands a file to the browser as a download. */
export function saveFile(blob: Blob, filename: string): void {
  downloadBlob(blob, filename);
}

const asBody = (file: Blob) =>
  file.type === "application/json" ? file : new Blob([file], { type: "application/json" });

/** Checks a file without changing anything. Throws ApiError (backup_invalid_file...). */
export function validateBackup(file: Blob): Promise<BackupInfo> {
  return api<BackupInfo>("/admin/backup/validate", {
    method: "POST",
    body: asBody(file),
    timeoutMs: LONG_TIMEOUT_MS,
  });
}

/** Restores a file in the given mode. Throws ApiError (restore_failed, restore_in_progress...). */
export function restoreBackup(file: Blob, mode: RestoreMode): Promise<RestoreReport> {
  return api<RestoreReport>("/admin/backup/restore", {
    method: "POST",
    query: { mode },
    body: asBody(file),
    timeoutMs: LONG_TIMEOUT_MS,
  });
}

/** The restore under way, if any. */
export function getRestoreStatus(): Promise<RestoreStatus> {
  return api<RestoreStatus>("/admin/backup/status");
}
