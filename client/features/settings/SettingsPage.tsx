/**
 * A settings screen (docs/PRODUCT.md §2.1: /admin/settings/global, /preview, /webdav, /site): the
 * group's settings as a form built from their metadata, checked like the server checks them, saved
 * in one request (all or nothing) with a toast. Site and preview settings apply to this tab at once
 * through the site config store; other tabs and devices get them on their next page load.
 */
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../app/use_page_title.ts";
import { patchSiteConfig } from "../../app/site_config.ts";
import { errorText } from "../../api/errors.ts";
import { saveErrorText } from "../../api/save_errors.ts";
import { toast } from "../../components/toast.ts";
import { Spinner } from "../../components/Spinner.tsx";
import {
  SETTING_GROUPS,
  type SettingGroupId,
  type SettingMeta,
  type SettingValue,
  SITE_GROUP,
} from "../../../shared/schemas/settings.ts";
import { APP_NAME } from "../../../shared/constants.ts";
import { parseExtensionList, PREVIEW_LIST_TYPES } from "../../../shared/preview_types.ts";
import { getGroupSettings, saveGroupSettings, type SettingEntry } from "./settings_api.ts";
import {
  type FormErrors,
  type FormValues,
  serverFieldErrors,
  toFormValues,
  validateSettingsForm,
} from "./settings_form.ts";
import { SettingField } from "./SettingField.tsx";
import { RetryAlert } from "../../components/RetryAlert.tsx";
import { PageHeader } from "../../components/PageHeader.tsx";

/** Numbers shown with an enum setting as their unit select. */
const PAIRED_UNITS: Record<string, string> = { max_upload_size: "max_upload_size_unit" };
const PAIRED = new Set(Object.values(PAIRED_UNITS));

const TITLE_KEYS: Record<SettingGroupId, string> = {
  1: "pageTitle.settingsGlobal",
  2: "pageTitle.settingsPreview",
  3: "pageTitle.settingsWebdav",
  4: "pageTitle.settingsSite",
};

/** Applies saved site or preview values to this tab's site config. */
function applyToSiteConfig(group: SettingGroupId, v: Record<string, SettingValue>) {
  if (group === SITE_GROUP) {
    patchSiteConfig({
      title: String(v.site_title ?? "").trim() || APP_NAME,
      faviconUrl: String(v.site_favicon_url ?? ""),
      footerMarkdown: String(v.site_footer_markdown ?? ""),
      announcementEnabled: v.site_announcement_enabled === true,
      announcementContent: String(v.site_announcement_content ?? ""),
      customHead: String(v.site_custom_head ?? ""),
      customBody: String(v.site_custom_body ?? ""),
      sourceUrl: String(v.site_source_url ?? "").trim(),
    });
  } else if (group === 2) {
    patchSiteConfig({
      previewTypes: Object.fromEntries(
        PREVIEW_LIST_TYPES.map((type) => [
          type,
          parseExtensionList(String(v[`preview_${type}_types`] ?? "")),
        ]),
      ) as Record<typeof PREVIEW_LIST_TYPES[number], string[]>,
    });
  }
}

/** The settings screen of one group. */
export default function SettingsPage({ group }: { group: SettingGroupId }) {
  const { t } = useTranslation();
  const name = SETTING_GROUPS.find((g) => g.id === group)!.name;
  usePageTitle(TITLE_KEYS[group]);
  const [entries, setEntries] = useState<SettingEntry[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [values, setValues] = useState<FormValues>({});
  const [errors, setErrors] = useState<FormErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const loads = useRef(0);

  const load = useCallback(async () => {
    const mine = ++loads.current;
    setLoadError(null);
    try {
      const list = await getGroupSettings(group);
      if (mine !== loads.current) return; // another group was opened meanwhile
      setEntries(list);
      setValues(toFormValues(list));
      setErrors({});
      setServerError(null);
    } catch (err) {
      if (mine === loads.current) setLoadError(errorText(t, err));
    }
  }, [group, t]);

  useEffect(() => {
    setEntries(null);
    void load();
  }, [load]);

  const onChange = (key: string, value: string | boolean) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined } as FormErrors));
  };

  const focusFirst = (found: FormErrors, metas: SettingMeta[]) => {
    const first = metas.find((m) => found[m.key]);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`[name="${first.key}"]`)?.focus();
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!entries) return;
    const checked = validateSettingsForm(entries, values);
    setErrors(checked.errors);
    setServerError(null);
    if (Object.keys(checked.errors).length > 0) return focusFirst(checked.errors, entries);
    setBusy(true);
    try {
      const saved = await saveGroupSettings(group, checked.values);
      const byKey = new Map(saved.map((s) => [s.key, s.value]));
      const next = entries.map((en) => ({ ...en, value: byKey.get(en.key) ?? en.value }));
      setEntries(next);
      setValues(toFormValues(next));
      applyToSiteConfig(group, Object.fromEntries(byKey));
      toast.success(t("settings.saved"));
    } catch (err) {
      const fields = serverFieldErrors(err);
      if (fields) {
        setErrors(fields);
        focusFirst(fields, entries);
      }
      setServerError(saveErrorText(t, err, "save_failed"));
    } finally {
      setBusy(false);
    }
  };

  const visible = (entries ?? []).filter((m) => !m.system && !PAIRED.has(m.key));
  const byKey = new Map((entries ?? []).map((m) => [m.key, m]));

  return (
    <section className="page settings-page">
      <PageHeader title={t(TITLE_KEYS[group])} intro={t(`settings.descriptions.${name}`)} />
      {loadError && <RetryAlert message={loadError} onRetry={() => void load()} />}
      {!entries && !loadError && <Spinner />}
      {entries && (
        <form ref={formRef} className="card form settings-form" onSubmit={onSubmit} noValidate>
          {visible.map((m) => (
            <SettingField
              key={m.key}
              meta={m}
              values={values}
              errors={errors}
              onChange={onChange}
              unit={PAIRED_UNITS[m.key] ? byKey.get(PAIRED_UNITS[m.key]) : undefined}
            />
          ))}
          {group === SITE_GROUP && <p className="field-hint">{t("settings.customCodeNote")}</p>}
          {serverError && <p className="form-error" role="alert">{serverError}</p>}
          <div className="settings-actions">
            <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy}>
              {busy ? t("settings.saving") : t("settings.save")}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
