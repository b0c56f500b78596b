/** The route tree (spec §2), shared by server rendering and the browser. */
import { Suspense } from "react";
import { Navigate, Route, Routes } from "react-router";
import { Layout } from "./components/Layout.tsx";
import { PastePage } from "./features/pastes/PastePage.tsx";
import { FilePage } from "./features/files/FilePage.tsx";
import { RequireAdmin, RequireAuth, RequirePermission } from "./auth/guards.tsx";
import { AdminIndexRedirect } from "./features/admin/AdminIndexRedirect.tsx";
import { NotFoundPage } from "./features/misc/NotFoundPage.tsx";
import { OfflinePage } from "./features/misc/OfflinePage.tsx";
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

export function App() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route
          index
          element={
            <L>
              <HomePage />
            </L>
          }
        />
        <Route
          path="upload"
          element={
            <RequirePermission bits={Permission.FILE_SHARE}>
              <L>
                <UploadPage />
              </L>
            </RequirePermission>
          }
        />
        <Route path="paste/:slug" element={<PastePage />} />
        <Route path="file/:slug" element={<FilePage />} />
        <Route
          path="mount-explorer/*"
          element={
            <RequirePermission mount>
              <L>
                <MountExplorerPage />
              </L>
            </RequirePermission>
          }
        />
        <Route path="offline" element={<OfflinePage />} />
        <Route path="not-found" element={<NotFoundPage />} />
        <Route
          path="admin/login"
          element={
            <L>
              <LoginPage />
            </L>
          }
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
          <Route
            path="dashboard"
            element={
              <RequireAdmin>
                <L>
                  <DashboardPage />
                </L>
              </RequireAdmin>
            }
          />
          <Route
            path="text-management"
            element={
              <RequirePermission bits={Permission.TEXT}>
                <L>
                  <TextManagementPage />
                </L>
              </RequirePermission>
            }
          />
          <Route
            path="file-management"
            element={
              <RequirePermission bits={Permission.FILE_SHARE}>
                <L>
                  <FileManagementPage />
                </L>
              </RequirePermission>
            }
          />
          <Route
            path="key-management"
            element={
              <RequireAdmin>
                <L>
                  <KeyManagementPage />
                </L>
              </RequireAdmin>
            }
          />
          <Route
            path="mount-management"
            element={
              <RequirePermission mount>
                <L>
                  <MountManagementPage />
                </L>
              </RequirePermission>
            }
          />
          <Route
            path="storage-config"
            element={
              <RequireAdmin>
                <L>
                  <StorageConfigPage />
                </L>
              </RequireAdmin>
            }
          />
          <Route
            path="account"
            element={
              <L>
                <AccountPage />
              </L>
            }
          />
          <Route
            path="backup"
            element={
              <RequireAdmin>
                <L>
                  <BackupPage />
                </L>
              </RequireAdmin>
            }
          />
          <Route
            path="settings/global"
            element={
              <RequireAdmin>
                <L>
                  <SettingsPage group={1} />
                </L>
              </RequireAdmin>
            }
          />
          <Route
            path="settings/webdav"
            element={
              <RequireAdmin>
                <L>
                  <SettingsPage group={3} />
                </L>
              </RequireAdmin>
            }
          />
          <Route
            path="settings/preview"
            element={
              <RequireAdmin>
                <L>
                  <SettingsPage group={2} />
                </L>
              </RequireAdmin>
            }
          />
          <Route
            path="settings/site"
            element={
              <RequireAdmin>
                <L>
                  <SettingsPage group={4} />
                </L>
              </RequireAdmin>
            }
          />
          <Route path="*" element={<Navigate to="/admin" replace />} />
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  );
}
