/**
 * Account management (docs/PRODUCT.md §2.3): the admin changes username and/or password, then is
 * logged out after a visible countdown; a key user sees only their own key's details.
 */
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../app/use_page_title.ts";
import { useAuth } from "../../auth/auth_store.ts";
import { AdminAccountForm } from "./AdminAccountForm.tsx";
import { KeyAccountInfo } from "./KeyAccountInfo.tsx";
import { PageHeader } from "../../components/PageHeader.tsx";

/** /admin/account: the admin's form, or a key user's own key details. */
export default function AccountPage() {
  const { t } = useTranslation();
  usePageTitle("pageTitle.account");
  const auth = useAuth();
  return (
    <section className="page account-page">
      <PageHeader title={t("account.title")} />
      {auth.authType === "admin" ? <AdminAccountForm /> : <KeyAccountInfo />}
    </section>
  );
}
