/**
 * Create or edit a storage config. The provider decides the fields: local storage has an
 * optional root directory; S3 kinds have endpoint, bucket, region, keys, path style, default
 * folder, custom host and signature expiry. Quota and the public flag apply to both. A config
 * cannot switch between local and S3 once created. Secrets are write-only.
 */
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../components/FormDialog.tsx";
import { useCheckedForm } from "../../components/use_checked_form.ts";
import { FormField, SelectField } from "../../components/FormField.tsx";
import { useBoundFields } from "../../components/use_bound_fields.tsx";
import {
  createStorageConfig,
  type ProviderType,
  type StorageConfigView,
  updateStorageConfig,
} from "./storage_api.ts";
import {
  editStorageForm,
  isS3,
  newStorageForm,
  PROVIDERS,
  QUOTA_UNITS,
  type QuotaUnit,
  SIGNATURE_MAX_S,
  SIGNATURE_MIN_S,
  STORAGE_REFUSALS,
  type StorageFormField,
  type StorageFormValues,
  toCreateBody,
  toUpdateBody,
  validateStorageForm,
} from "./storage_form.ts";

/** Example endpoints per provider, shown as placeholders. */
const ENDPOINT_EXAMPLES: Record<ProviderType, string> = {
  local: "",
  aws: "https://s3.us-east-1.amazonaws.com",
  r2: "https://<account-id>.r2.cloudflarestorage.com",
  b2: "https://s3.us-west-004.backblazeb2.com",
  aliyun_oss: "https://oss-cn-hangzhou.aliyuncs.com",
  minio: "http://127.0.0.1:9000",
  other: "https://s3.example.com",
};

export function StorageConfigDialog(
  { editing, onClose, onSaved }: {
    /** The config being edited; null to create one. */
    editing: StorageConfigView | null;
    onClose: () => void;
    onSaved: (saved: StorageConfigView) => void;
  },
) {
  const { t } = useTranslation();
  const mode = editing ? "edit" : "create";
  const fid = (f: StorageFormField) => `storage-${f}`;
  const form = useCheckedForm<
    StorageFormValues
  >({
    initial: () => editing ? editStorageForm(editing) : newStorageForm(),
    formId: "storage-config-form",
    idOf: fid,
    check: (values) => validateStorageForm(values, mode),
    save: async (values) =>
      onSaved(
        editing
          ? await updateStorageConfig(editing.id, toUpdateBody(values, editing))
          : await createStorageConfig(toCreateBody(values)),
      ),
    refusals: STORAGE_REFUSALS,
  });
  const { values, setValues, set, serverError } = form;
  const s3 = isS3(values.provider_type);
  const { err, input: text, check } = useBoundFields(form, "storage.form.errors");

  const setProvider = (p: ProviderType) =>
    setValues((v) => ({
      ...v,
      provider_type: p,
      // New configs: MinIO usually needs path-style addressing, the others do not.
      path_style: mode === "create" ? p === "minio" : v.path_style,
    }));

  // A config keeps its kind: local stays local, S3 stays S3.
  const providers = editing
    ? PROVIDERS.filter((p) => isS3(p) === isS3(editing.provider_type))
    : PROVIDERS;

  return (
    <FormDialog
      texts="storage.form"
      editingName={editing?.name}
      formId="storage-config-form"
      onClose={onClose}
      form={form}
      error={serverError}
    >
      <div className="field-row">
        {text("name", t("storage.form.name"), { placeholder: t("storage.form.namePlaceholder") })}
        <SelectField
          id="storage-provider_type"
          label={t("storage.form.provider")}
          hint={editing ? t("storage.form.providerLocked") : undefined}
          value={values.provider_type}
          disabled={providers.length === 1}
          onChange={(v) => setProvider(v as ProviderType)}
        >
          {providers.map((p) => <option key={p} value={p}>{t(`storage.providers.${p}`)}</option>)}
        </SelectField>
      </div>

      {!s3 && text("root_dir", t("storage.form.rootDir"), {
        hint: t("storage.form.rootDirHint"),
        placeholder: "/var/lib/cubby/storage",
      })}

      {s3 && (
        <fieldset className="fieldset storage-fieldset">
          <legend>{t("storage.form.connection")}</legend>
          <div className="form">
            {text("endpoint_url", t("storage.form.endpoint"), {
              hint: values.provider_type === "aws"
                ? t("storage.form.endpointAwsHint")
                : t("storage.form.endpointHint"),
              placeholder: ENDPOINT_EXAMPLES[values.provider_type],
              type: "url",
            })}
            <div className="field-row">
              {text("bucket_name", t("storage.form.bucket"))}
              {text("region", t("storage.form.region"), {
                placeholder: values.provider_type === "r2" ? "auto" : "us-east-1",
                hint: t("storage.form.regionHint"),
              })}
            </div>
            <div className="field-row">
              {text("access_key_id", t("storage.form.accessKeyId"), {
                hint: editing
                  ? t("storage.form.accessKeyKeep", {
                    masked: editing.access_key_id_masked || "—",
                  })
                  : undefined,
              })}
              {text("secret_access_key", t("storage.form.secret"), {
                type: "password",
                autoComplete: "new-password",
                hint: editing
                  ? (editing.has_secret
                    ? t("storage.form.secretKeep")
                    : t("storage.form.secretNone"))
                  : t("storage.form.secretHint"),
              })}
            </div>
            {check("path_style", t("storage.form.pathStyle"), t("storage.form.pathStyleHint"))}
          </div>
        </fieldset>
      )}

      {s3 && (
        <div className="field-row">
          {text("default_folder", t("storage.form.defaultFolder"), {
            hint: t("storage.form.defaultFolderHint"),
            placeholder: "uploads",
          })}
          {text("custom_host", t("storage.form.customHost"), {
            hint: t("storage.form.customHostHint"),
            placeholder: "https://cdn.example.com",
            type: "url",
          })}
        </div>
      )}

      <div className="field-row">
        {s3 && (
          text("signature_expires_in", t("storage.form.signature"), {
            whole: true,
            min: SIGNATURE_MIN_S,
            max: SIGNATURE_MAX_S,
            hint: t("storage.form.signatureHint", { min: SIGNATURE_MIN_S, max: SIGNATURE_MAX_S }),
          })
        )}
        <FormField
          id={fid("quota")}
          label={t("storage.form.quota")}
          hint={t("storage.form.quotaHint")}
          error={err("quota")}
        >
          {(a) => (
            <div className="input-group">
              <input
                {...a}
                className="input"
                type="number"
                inputMode="decimal"
                min={0}
                step="any"
                value={values.quota}
                placeholder={t("storage.form.quotaPlaceholder")}
                onChange={(e) => set("quota", e.currentTarget.value)}
              />
              <select
                className="input storage-quota-unit"
                aria-label={t("storage.form.quotaUnit")}
                value={values.quota_unit}
                onChange={(e) => set("quota_unit", e.currentTarget.value as QuotaUnit)}
              >
                {Object.keys(QUOTA_UNITS).map((u) => <option key={u} value={u}>{u}</option>)}
              </select>
            </div>
          )}
        </FormField>
      </div>

      {check("is_public", t("storage.form.public"), t("storage.form.publicHint"))}
    </FormDialog>
  );
}
