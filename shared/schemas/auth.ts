/** Login and account requests (docs/PRODUCT.md §7.1). */
import { z } from "zod";

export const LoginSchema = z.object({
  username: z.string().trim().min(1).max(100),
  password: z.string().min(1).max(1000),
  /** The token of a known device, from an earlier login's reply (an unknown one is ignored). */
  device_token: z.string().max(200).optional(),
});

/** The account change; the username and password rules (account_rules.ts) are the service's. */
export const ChangePasswordSchema = z.object({
  currentPassword: z.string().min(1).max(1000),
  newPassword: z.string().max(4000).optional().or(z.literal("")),
  newUsername: z.string().trim().max(4000).optional().or(z.literal("")),
});
export type ChangePassword = z.infer<typeof ChangePasswordSchema>;
