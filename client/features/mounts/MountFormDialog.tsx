/**
 * Create or edit a mount (admin). The storage config picker lists only configs of the chosen
 * storage type; switching the type picks that type's default (or first) config. Checks follow
 * docs/PRODUCT.md §5.1; server refusals (a taken path, a reserved one) land on their field.
 */
import { configLabels } from "../storage/config_labels.ts";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { FormDialog } from "../../components/FormDialog.tsx";
import { useCheckedForm } from "../../components/use_checked_form.ts";
import { FormField, SelectField } from "../../components/FormField.tsx";
import { useBoundFields } from "../../components/use_bound_fields.tsx";
import { paths } from "../../../shared/app_paths.ts";
import type { StorageConfigView } from "../storage/storage_api.ts";
import { createMount, type MountView, updateMount } from "./mounts_api.ts";
import {
  CACHE_TTL_PLACEHOLDER,
  editMountForm,
  MOUNT_REFUSALS,
  type MountFormField,
  type MountFormValues,
  newMountForm,
  type StorageKind,
  toMountBody,
  validateMountForm,
  type WebdavPolicy,
} from "./mount_form.ts";
import { MOUNT_CACHE_TTL_MAX, MOUNT_NAME_MAX } from "../../../shared/constants.ts";

/** The fields typed into one-line inputs. */
/** The config a type starts with: its default, else its first. */
function firstConfigOf(configs: StorageConfigView[], kind: StorageKind): string {
  const ofKind = configs.filter((c) => c.storage_type === kind);
  return (ofKind.find((c) => c.is_default) ?? ofKind[0])?.id ?? "";
}

export function MountFormDialog(
  { editing, configs, onClose, onSaved }: {
    editing: MountView | null;
    configs: StorageConfigView[];
    onClose: () => void;
    onSaved: (saved: MountView) => void;
  },
) {
  const { t } = useTranslation();
  const fid = (f: MountFormField) => `mount-${f}`;
  const form = useCheckedForm<
    MountFormValues
  >({
    initial: () => {
      if (editing) return editMountForm(editing);
      const v = newMountForm();
      return { ...v, storage_config_id: firstConfigOf(configs, v.storage_type) };
    },
    formId: "mount-form",
    idOf: fid,
    check: validateMountForm,
    save: async (values) => {
      const body = toMountBody(values);
      onSaved(editing ? await updateMount(editing.id, body) : await createMount(body));
    },
    refusals: MOUNT_REFUSALS,
  });
  const { values, setValues, set, setErrors, serverError } = form;
  const { err, input, check } = useBoundFields(form, "mounts.form.errors");
  const options = configs.filter((c) => c.storage_type === values.storage_type);
  const labels = configLabels(configs);

  const setKind = (kind: StorageKind) => {
    setValues((v) => ({
      ...v,
      storage_type: kind,
      storage_config_id: firstConfigOf(configs, kind),
    }));
    setErrors((e) => ({ ...e, storage_config_id: undefined }));
  };

  return (
    <FormDialog
      texts="mounts.form"
      editingName={editing?.name}
      formId="mount-form"
      formClassName="mount-form"
      form={form}
      onClose={onClose}
      error={serverError}
    >
      <div className="field-row">
        {input("name", t("mounts.form.name"), {
          hint: t("mounts.form.nameHint", { max: MOUNT_NAME_MAX }),
        })}
        {input("mount_path", t("mounts.form.path"), {
          hint: t("mounts.form.pathHint"),
          placeholder: "/docs",
        })}
      </div>
      <div className="field-row">
        <SelectField
          id={fid("storage_type")}
          label={t("mounts.form.storageType")}
          value={values.storage_type}
          onChange={(v) => setKind(v as StorageKind)}
        >
          <option value="local">{t("mounts.storageType.local")}</option>
          <option value="s3">{t("mounts.storageType.s3")}</option>
        </SelectField>
        <SelectField
          id={fid("storage_config_id")}
          label={t("mounts.form.storageConfig")}
          error={err("storage_config_id")}
          hint={options.length === 0
            ? (
              <>
                {t("mounts.form.noConfigs")}{" "}
                <Link to={paths.storageConfig}>{t("mounts.form.manageConfigs")}</Link>
              </>
            )
            : undefined}
          value={values.storage_config_id}
          onChange={(v) => set("storage_config_id", v)}
        >
          {options.length === 0 && <option value="">{t("mounts.form.chooseConfig")}</option>}
          {options.map((c) => (
            <option key={c.id} value={c.id}>
              {c.is_default
                ? t("mounts.form.defaultConfig", { name: labels.get(c.id) ?? c.name })
                : labels.get(c.id) ?? c.name}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="field-row">
        {input("cache_ttl", t("mounts.form.cacheTtl"), {
          whole: true,
          min: 0,
          max: MOUNT_CACHE_TTL_MAX,
          placeholder: String(CACHE_TTL_PLACEHOLDER),
          hint: t("mounts.form.cacheTtlHint", { max: MOUNT_CACHE_TTL_MAX }),
        })}
        {input("sort_order", t("mounts.form.sortOrder"), {
          whole: true,
          hint: t("mounts.form.sortOrderHint"),
        })}
      </div>
      <FormField id={fid("remark")} label={t("mounts.form.remark")} error={err("remark")}>
        {(a) => (
          <textarea
            {...a}
            className="input"
            rows={2}
            maxLength={1000}
            value={values.remark}
            onChange={(e) => set("remark", e.currentTarget.value)}
          />
        )}
      </FormField>
      {check("is_active", t("mounts.form.active"), t("mounts.form.activeHint"))}
      <fieldset className="fieldset">
        <legend>{t("mounts.form.access")}</legend>
        <div className="form">
          {check("web_proxy", t("mounts.form.webProxy"), t("mounts.form.webProxyHint"))}
          {check("enable_sign", t("mounts.form.enableSign"), t("mounts.form.enableSignHint"))}
          {input("sign_expires", t("mounts.form.signExpires"), {
            whole: true,
            min: 0,
            hint: t("mounts.form.signExpiresHint"),
          })}
          <SelectField
            id={fid("webdav_policy")}
            label={t("mounts.form.webdavPolicy")}
            hint={t(`mounts.webdavPolicyHint.${values.webdav_policy}`)}
            value={values.webdav_policy}
            onChange={(v) => set("webdav_policy", v as WebdavPolicy)}
          >
            <option value="302_redirect">{t("mounts.webdavPolicy.302_redirect")}</option>
            <option value="native_proxy">{t("mounts.webdavPolicy.native_proxy")}</option>
          </SelectField>
        </div>
      </fieldset>
    </FormDialog>
  );
}
