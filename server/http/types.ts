/** The Hono environment shared by every route group. */
import type { Language } from "../../shared/constants.ts";
import type { Auth } from "../services/auth.ts";
import type { Services } from "../container.ts";

export type AppEnv = {
  Variables: {
    requestId: string;
    lang: Language;
    auth: Auth;
    services: Services;
    /** Set on byte routes (raw, view, download, proxy, WebDAV): errors become plain text. */
    plainErrors: boolean;
    clientIp: string;
    /** The matched route's body limit (bodyLimit() in body.ts); unset means JSON_BODY_MAX. */
    bodyMax: number | undefined;
  };
};
