/** Background tasks (docs/PRODUCT.md §3.10, §4.2): copies and deletes in the mount explorer. */
import { z } from "zod";

export const TASK_TYPES = ["copy", "upload", "delete", "download"] as const;
export const TASK_STATUSES = ["pending", "running", "completed", "failed", "cancelled"] as const;
export type TaskStatus = typeof TASK_STATUSES[number];

const Path = z.string().min(1).max(4096);

export const BatchCopySchema = z.object({
  items: z.array(z.object({ sourcePath: Path, targetPath: Path })).min(1).max(1000),
  skipExisting: z.boolean().default(false),
  /** What to do with a file already at its target; `skipExisting` means "skip". */
  on_conflict: z.enum(["overwrite", "skip", "rename"]).optional(),
});
export type BatchCopy = z.infer<typeof BatchCopySchema>;

export const BatchCopyCommitSchema = z.object({
  targetMountId: z.string().min(1).max(64),
  files: z.array(z.object({ targetPath: Path, size: z.number().int().min(0).optional() }))
    .min(1).max(1000),
});

/** A task as the API returns it. */
export type TaskView = {
  id: string;
  type: typeof TASK_TYPES[number];
  status: TaskStatus;
  /** 0–100. */
  progress: number;
  current_file: string | null;
  success_count: number;
  failed_count: number;
  skipped_count: number;
  total: number;
  error: string | null;
  errors: { path: string; error: string }[];
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  created_by: string;
};

export const DeleteTaskSchema = z.object({ paths: z.array(Path).min(1).max(1000) });

export const DownloadTaskSchema = z.object({
  urls: z.array(z.string().min(1).max(4096)).min(1).max(100),
  path: Path,
});
