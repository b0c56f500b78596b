/** The route tree (docs/PRODUCT.md §2.1), shared by server rendering and the browser. */
import { Suspense } from "react";
import { Navigate, Route, Routes } from "react-router";
import { Layout } from "./app/Layout.tsx";
import { PastePage } from "./features/pastes/PastePage.tsx";
import { FilePage } from "./features/files/FilePage.tsx";
import { RequireAdmin, RequireAuth, RequirePermission } from "./auth/guards.tsx";
import { AdminIndexRedirect } from "./features/admin/AdminIndexRedirect.tsx";
import { NotFoundPage } from "./features/misc/NotFoundPage.tsx";
import { OfflinePage } from "./components/OfflinePage.tsx";
import { Permission } from "../shared/permissions.ts";
import { Spinner } from "./components/Spinner.tsx";
import { lazyPage } from "./app/lazy_page.ts";
import { PageErrorBoundary } from "./components/PageErrorBoundary.tsx";

const HomePage = lazyPage(() => import("./features/pastes/HomePage.tsx"));
const LoginPage = lazyPage(() => import("./features/auth/LoginPage.tsx"));
const AdminLayout = lazyPage(() => import("./features/admin/AdminLayout.tsx"));
const TextManagementPage = lazyPage(() => import("./features/pastes/TextManagementPage.tsx"));
const KeyManagementPage = lazyPage(() => import("./features/keys/KeyManagementPage.tsx"));
const AccountPage = lazyPage(() => import("./features/account/AccountPage.tsx"));
const FileManagementPage = lazyPage(() => import("./features/files/FileManagementPage.tsx"));
const UploadPage = lazyPage(() => import("./features/upload/UploadPage.tsx"));
const StorageConfigPage = lazyPage(() => import("./features/storage/StorageConfigPage.tsx"));
const DashboardPage = lazyPage(() => import("./features/dashboard/DashboardPage.tsx"));
const SettingsPage = lazyPage(() => import("./features/settings/SettingsPage.tsx"));
const MountManagementPage = lazyPage(() => import("./features/mounts/MountManagementPage.tsx"));
const MountExplorerPage = lazyPage(() => import("./features/explorer/MountExplorerPage.tsx"));
const BackupPage = lazyPage(() => import("./features/backup/BackupPage.tsx"));

/**
 * Wraps a lazily loaded page in a Suspense boundary with a spinner, inside an error boundary
 * that turns a chunk that cannot load into a message with retry and reload.
 */
function L({ children }: { children: React.ReactNode }) {
  return (
    <PageErrorBoundary>
      <Suspense fallback={<Spinner />}>{children}</Suspense>
    </PageErrorBoundary>
  );
}

/** A lazily loaded page, wrapped in `L`. */
function lazyRoute(page: React.ReactNode) {
  return <L>{page}</L>;
}

/** A lazily loaded page (`L`) that only admins may open. */
function adminOnly(page: React.ReactNode) {
  return (
    <RequireAdmin>
      <L>{page}</L>
    </RequireAdmin>
  );
}

/** A lazily loaded page (`L`) for users holding `bits`, or mount access with `mount`. */
function permitted(page: React.ReactNode, need: { bits: number } | { mount: true }) {
  return (
    <RequirePermission {...need}>
      <L>{page}</L>
    </RequirePermission>
  );
}

export function App() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route
          index
          element={lazyRoute(<HomePage />)}
        />
        <Route path="upload" element={permitted(<UploadPage />, { bits: Permission.FILE_SHARE })} />
        <Route path="paste/:slug" element={<PastePage />} />
        <Route path="file/:slug" element={<FilePage />} />
        <Route
          path="mount-explorer/*"
          element={permitted(<MountExplorerPage />, { mount: true })}
        />
        <Route path="offline" element={<OfflinePage />} />
        <Route path="not-found" element={<NotFoundPage />} />
        <Route
          path="admin/login"
          element={lazyRoute(<LoginPage />)}
        />
        <Route
          path="admin"
          element={
            <RequireAuth>
              <L>
                <AdminLayout />
              </L>
            </RequireAuth>
          }
        >
          <Route index element={<AdminIndexRedirect />} />
          <Route path="dashboard" element={adminOnly(<DashboardPage />)} />
          <Route
            path="text-management"
            element={permitted(<TextManagementPage />, { bits: Permission.TEXT })}
          />
          <Route
            path="file-management"
            element={permitted(<FileManagementPage />, { bits: Permission.FILE_SHARE })}
          />
          <Route path="key-management" element={adminOnly(<KeyManagementPage />)} />
          <Route
            path="mount-management"
            element={permitted(<MountManagementPage />, { mount: true })}
          />
          <Route path="storage-config" element={adminOnly(<StorageConfigPage />)} />
          <Route
            path="account"
            element={lazyRoute(<AccountPage />)}
          />
          <Route path="backup" element={adminOnly(<BackupPage />)} />
          <Route path="settings/global" element={adminOnly(<SettingsPage group={1} />)} />
          <Route path="settings/webdav" element={adminOnly(<SettingsPage group={3} />)} />
          <Route path="settings/preview" element={adminOnly(<SettingsPage group={2} />)} />
          <Route path="settings/site" element={adminOnly(<SettingsPage group={4} />)} />
          <Route path="*" element={<Navigate to="/admin" replace />} />
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  );
}
