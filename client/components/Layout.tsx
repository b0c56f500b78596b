/** PLACEHOLDER layout — replaced by the app-shell work. */
import { Outlet } from "react-router";
export function Layout() {
  return (
    <main>
      <Outlet />
    </main>
  );
}
