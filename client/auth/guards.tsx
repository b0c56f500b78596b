/** PLACEHOLDER guards — replaced by the app-shell work. */
import type { ReactNode } from "react";
export function RequireAuth({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
export function RequireAdmin({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
export function RequirePermission(
  { children }: { children: ReactNode; bits?: number; mount?: boolean },
) {
  return <>{children}</>;
}
