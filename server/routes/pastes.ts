/** PLACEHOLDER — replaced by the pastes work. */
import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
export function pasteRoutes() {
  return new Hono<AppEnv>();
}
