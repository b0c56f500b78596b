/**
 * Create or edit a storage config. The provider decides the fields: local storage has an
 * optional root directory; S3 kinds have endpoint, bucket, region, keys, path style, default
 * folder, custom host and signature expiry. Quota and the public flag apply to both. A config
 * cannot switch between local and S3 once created. Secrets are write-only.
 */
import { type FormEvent, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Modal } from "../../components/Modal.tsx";
import { ApiError } from "../../api/client.ts";
import { errorText } from "../../api/errors.ts";
import { FormField } from "../upload/FormField.tsx";
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
  serverFieldErrors,
  SIGNATURE_MAX_S,
  SIGNATURE_MIN_S,
  type StorageFormErrors,
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

/** Field order, for focusing the first invalid one. */
const FIELD_ORDER: StorageFormField[] = [
  "name",
  "root_dir",
  "endpoint_url",
  "bucket_name",
  "region",
  "access_key_id",
  "secret_access_key",
  "default_folder",
  "custom_host",
  "signature_expires_in",
  "quota",
];

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
  const [values, setValues] = useState<StorageFormValues>(() =>
    editing ? editStorageForm(editing) : newStorageForm()
  );
  const [errors, setErrors] = useState<StorageFormErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const s3 = isS3(values.provider_type);
  const fid = (f: StorageFormField) => `storage-${f}`;
  const err = (f: StorageFormField) => (errors[f] ? t(`storage.form.errors.${errors[f]}`) : null);

  const set = <K extends StorageFormField>(key: K, value: StorageFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const setProvider = (p: ProviderType) =>
    setValues((v) => ({
      ...v,
      provider_type: p,
      // New configs: MinIO usually needs path-style addressing, the others do not.
      path_style: mode === "create" ? p === "minio" : v.path_style,
    }));

  const focusFirst = (found: StorageFormErrors) => {
    const first = FIELD_ORDER.find((f) => found[f]);
    if (first) document.getElementById(fid(first))?.focus();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const found = validateStorageForm(values, mode);
    setErrors(found);
    setServerError(null);
    if (Object.values(found).some(Boolean)) {
      focusFirst(found);
      return;
    }
    setBusy(true);
    try {
      const saved = editing
        ? await updateStorageConfig(editing.id, toUpdateBody(values, editing))
        : await createStorageConfig(toCreateBody(values));
      onSaved(saved);
    } catch (error) {
      const fields = error instanceof ApiError ? serverFieldErrors(error.data) : {};
      setErrors(fields);
      setServerError(errorText(t, error));
      focusFirst(fields);
    } finally {
      setBusy(false);
    }
  };

  /** A text input bound to a field. */
  const text = (
    f: StorageFormField,
    label: ReactNode,
    opts: { hint?: ReactNode; placeholder?: string; type?: string; autoComplete?: string } = {},
  ) => (
    <FormField id={fid(f)} label={label} hint={opts.hint} error={err(f)}>
      {(a) => (
        <input
          {...a}
          className="input"
          type={opts.type ?? "text"}
          value={values[f] as string}
          placeholder={opts.placeholder}
          autoComplete={opts.autoComplete ?? "off"}
          spellCheck={false}
          onChange={(e) => set(f, e.currentTarget.value as never)}
        />
      )}
    </FormField>
  );

  // A config keeps its kind: local stays local, S3 stays S3.
  const providers = editing
    ? PROVIDERS.filter((p) => isS3(p) === isS3(editing.provider_type))
    : PROVIDERS;

  return (
    <Modal
      open
      onClose={onClose}
      size="large"
      dismissible={!busy}
      title={editing
        ? t("storage.form.editTitle", { name: editing.name })
        : t("storage.form.createTitle")}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose} disabled={busy}>
            {t("common.cancel")}
          </button>
          <button
            type="submit"
            form="storage-config-form"
            className="btn btn-primary"
            disabled={busy}
            aria-busy={busy || undefined}
          >
            {busy ? t("storage.form.saving") : t("common.save")}
          </button>
        </>
      }
    >
      <form id="storage-config-form" className="form storage-form" onSubmit={submit} noValidate>
        <div className="field-row">
          {text("name", t("storage.form.name"), { placeholder: t("storage.form.namePlaceholder") })}
          <FormField
            id="storage-provider_type"
            label={t("storage.form.provider")}
            hint={editing ? t("storage.form.providerLocked") : undefined}
          >
            {(a) => (
              <select
                {...a}
                className="input"
                value={values.provider_type}
                disabled={providers.length === 1}
                onChange={(e) => setProvider(e.currentTarget.value as ProviderType)}
              >
                {providers.map((p) => (
                  <option key={p} value={p}>{t(`storage.providers.${p}`)}</option>
                ))}
              </select>
            )}
          </FormField>
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
              <div className="field">
                <label className="check">
                  <input
                    id="storage-path_style"
                    type="checkbox"
                    checked={values.path_style}
                    aria-describedby="storage-path_style-hint"
                    onChange={(e) => set("path_style", e.currentTarget.checked)}
                  />
                  <span>{t("storage.form.pathStyle")}</span>
                </label>
                <p id="storage-path_style-hint" className="field-hint">
                  {t("storage.form.pathStyleHint")}
                </p>
              </div>
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
            <FormField
              id={fid("signature_expires_in")}
              label={t("storage.form.signature")}
              hint={t("storage.form.signatureHint", { min: SIGNATURE_MIN_S, max: SIGNATURE_MAX_S })}
              error={err("signature_expires_in")}
            >
              {(a) => (
                <input
                  {...a}
                  className="input"
                  type="number"
                  inputMode="numeric"
                  min={SIGNATURE_MIN_S}
                  max={SIGNATURE_MAX_S}
                  step={1}
                  value={values.signature_expires_in}
                  onChange={(e) => set("signature_expires_in", e.currentTarget.value)}
                />
              )}
            </FormField>
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

        <div className="field">
          <label className="check">
            <input
              id="storage-is_public"
              type="checkbox"
              checked={values.is_public}
              aria-describedby="storage-is_public-hint"
              onChange={(e) => set("is_public", e.currentTarget.checked)}
            />
            <span>{t("storage.form.public")}</span>
          </label>
          <p id="storage-is_public-hint" className="field-hint">{t("storage.form.publicHint")}</p>
        </div>

        {serverError && <p className="form-error" role="alert">{serverError}</p>}
      </form>
    </Modal>
  );
}
