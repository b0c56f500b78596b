/** Account management (`/admin/account`): the admin's username and password form. */
import type { Locator } from "@playwright/test";
import { PageObject } from "./page_object.ts";

/** The form's texts in one language. */
export type AccountTexts = {
  heading: string;
  currentPassword: string;
  newUsername: string;
  newPassword: string;
  confirmPassword: string;
  submit: string;
};

export const ACCOUNT_TEXTS: Record<"en-US" | "zh-CN", AccountTexts> = {
  "en-US": {
    heading: "Account",
    currentPassword: "Current password",
    newUsername: "New username",
    newPassword: "New password",
    confirmPassword: "Confirm new password",
    submit: "Update account",
  },
  "zh-CN": {
    heading: "账户管理",
    currentPassword: "当前密码",
    newUsername: "新用户名",
    newPassword: "新密码",
    confirmPassword: "确认新密码",
    submit: "更新账户",
  },
};

export class AccountPage extends PageObject {
  texts: AccountTexts = ACCOUNT_TEXTS["en-US"];

  /** Uses the texts of `lang` for the locators made after this call. */
  inLanguage(lang: "en-US" | "zh-CN"): this {
    this.texts = ACCOUNT_TEXTS[lang];
    return this;
  }

  get heading(): Locator {
    return this.h1(this.texts.heading);
  }
  get currentPassword(): Locator {
    return this.page.getByLabel(this.texts.currentPassword, { exact: true });
  }
  get newUsername(): Locator {
    return this.page.getByLabel(this.texts.newUsername, { exact: true });
  }
  get newPassword(): Locator {
    return this.page.getByLabel(this.texts.newPassword, { exact: true });
  }
  get confirmPassword(): Locator {
    return this.page.getByLabel(this.texts.confirmPassword, { exact: true });
  }
  get submit(): Locator {
    return this.page.getByRole("button", { name: this.texts.submit });
  }
  /** The refusal at the top of the form. */
  get alert(): Locator {
    return this.page.locator("form").getByRole("alert");
  }

  goto(): Promise<void> {
    return this.gotoAndWait("/admin/account", this.heading);
  }
}
