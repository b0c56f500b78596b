/** Builds every service from the config and the KV handle: the one place services are wired. */
import type { Config } from "../config.ts";
import { AccountRepo } from "../kv/account_repo.ts";
import { ApiKeyRepo } from "../kv/api_key_repo.ts";
import { RateLimiter } from "../kv/rate_limit_repo.ts";
import { ApiKeyService } from "./api_keys.ts";
import { AuthService } from "./auth.ts";
import { SiteService } from "./site.ts";

export type Services = ReturnType<typeof createServices>;

/** Wires repositories and services together. */
export function createServices(config: Config, kv: Deno.Kv, log: (msg: string) => void) {
  const limiter = new RateLimiter(kv);
  const apiKeys = new ApiKeyService(new ApiKeyRepo(kv));
  const auth = new AuthService(config, new AccountRepo(kv), apiKeys, limiter, log);
  const site = new SiteService(kv);
  const pastes = { deleteExpired: (_now: number) => Promise.resolve(0) }; // PLACEHOLDER
  return { config, kv, limiter, apiKeys, auth, site, pastes };
}
