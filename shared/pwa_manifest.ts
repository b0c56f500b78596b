/**
 * The web app manifest's own texts (server/routes/web_manifest.ts), in every language. The server
 * builds the manifest without the client's catalogues, which only the server-rendering stack loads.
 */
import type { Language } from "./constants.ts";

/** The manifest's description and the names of its shortcuts. */
export type ManifestTexts = { description: string; newPaste: string; upload: string };

/** The manifest texts by language. */
export const MANIFEST_TEXTS: Record<Language, ManifestTexts> = {
  "en-US": {
    description: "Self-hosted clipboard and file sharing: paste text, upload files, share links.",
    newPaste: "New paste",
    upload: "Upload files",
  },
  "zh-CN": {
    description: "自托管的剪贴板与文件分享：粘贴文本、上传文件、分享链接。",
    newPaste: "新建文本",
    upload: "上传文件",
  },
};
