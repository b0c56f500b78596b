/**
 * The upload options (spec §3): storage config, link suffix (one file only), remark, password,
 * expiry preset, max views, proxy flag, and under "Advanced" the upload method.
 */
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { MAX_SLUG_LENGTH, SHARE_EXPIRY_PRESETS } from "../../../shared/constants.ts";
import { paths } from "../../routes.ts";
import type { StorageConfigView } from "./upload_api.ts";
import {
  type ExpiryPresetId,
  METHOD_CHOICES,
  type MethodChoice,
  methodFor,
  type UploadFormValues,
} from "./upload_form.ts";
import { FormField } from "./FormField.tsx";
import { formatBytes } from "./format.ts";
import { RetryAlert } from "../../components/RetryAlert.tsx";

export type UploadFormErrors = { slug?: string | null; maxViews?: string | null };

function ConfigUsage({ config }: { config: StorageConfigView }) {
  const { t } = useTranslation();
  return (
    <>
      {config.total_storage_bytes !== null
        ? t("upload.options.storageUsage", {
          used: formatBytes(config.used_bytes),
          total: formatBytes(config.total_storage_bytes),
        })
        : t("upload.options.storageUsageUnlimited", { used: formatBytes(config.used_bytes) })}
    </>
  );
}

export function UploadOptionsForm(
  {
    values,
    onChange,
    errors,
    configs,
    configsError,
    onReloadConfigs,
    slugUsable,
    isAdmin,
    disabled,
  }: {
    values: UploadFormValues;
    onChange: (patch: Partial<UploadFormValues>) => void;
    errors: UploadFormErrors;
    configs: StorageConfigView[] | null;
    configsError: string | null;
    onReloadConfigs: () => void;
    /** False when more than one file waits: a custom suffix needs a single file. */
    slugUsable: boolean;
    isAdmin: boolean;
    disabled?: boolean;
  },
) {
  const { t } = useTranslation();
  const selected = configs?.find((c) => c.id === values.configId);
  const auto = methodFor("auto", selected);

  return (
    <div className="upload-options">
      {configsError
        ? <RetryAlert message={configsError} onRetry={onReloadConfigs} />
        : configs && configs.length === 0
        ? (
          <div className="alert alert-warning" role="alert">
            <span>{t("upload.options.noStorage")}</span>
            {isAdmin && <Link to={paths.storageConfig}>{t("upload.options.manageStorage")}</Link>}
          </div>
        )
        : (
          <FormField
            id="upload-config"
            label={t("upload.options.storage")}
            hint={selected ? <ConfigUsage config={selected} /> : undefined}
          >
            {(a) => (
              <select
                {...a}
                className="input"
                value={values.configId}
                disabled={disabled || !configs}
                onChange={(e) => onChange({ configId: e.currentTarget.value })}
              >
                {!configs && <option value="">{t("common.loading")}</option>}
                {configs?.map((c) => (
                  <option key={c.id} value={c.id}>
                    {`${c.name} (${t(`storage.providers.${c.provider_type}`)})${
                      c.is_default ? ` · ${t("upload.options.storageDefault")}` : ""
                    }`}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        )}

      <FormField
        id="upload-slug"
        label={t("upload.options.slug")}
        hint={slugUsable
          ? t("upload.options.slugHint", { max: MAX_SLUG_LENGTH })
          : t("upload.options.slugSingleOnly")}
        error={slugUsable ? errors.slug : null}
      >
        {(a) => (
          <input
            {...a}
            className="input"
            type="text"
            value={slugUsable ? values.slug : ""}
            maxLength={MAX_SLUG_LENGTH + 10}
            autoComplete="off"
            spellCheck={false}
            placeholder={t("upload.options.slugPlaceholder")}
            disabled={disabled || !slugUsable}
            onChange={(e) => onChange({ slug: e.currentTarget.value })}
          />
        )}
      </FormField>

      <FormField id="upload-remark" label={t("upload.options.remark")}>
        {(a) => (
          <input
            {...a}
            className="input"
            type="text"
            value={values.remark}
            maxLength={1000}
            disabled={disabled}
            onChange={(e) => onChange({ remark: e.currentTarget.value })}
          />
        )}
      </FormField>

      <FormField
        id="upload-password"
        label={t("upload.options.password")}
        hint={t("upload.options.passwordHint")}
      >
        {(a) => (
          <input
            {...a}
            className="input"
            type="password"
            value={values.password}
            maxLength={1000}
            autoComplete="new-password"
            disabled={disabled}
            onChange={(e) => onChange({ password: e.currentTarget.value })}
          />
        )}
      </FormField>

      <div className="upload-options-row">
        <FormField id="upload-expiry" label={t("upload.options.expiry")}>
          {(a) => (
            <select
              {...a}
              className="input"
              value={values.expiry}
              disabled={disabled}
              onChange={(e) => onChange({ expiry: e.currentTarget.value as ExpiryPresetId })}
            >
              {SHARE_EXPIRY_PRESETS.map((p) => (
                <option key={p.id} value={p.id}>{t(`upload.expiry.${p.id}`)}</option>
              ))}
            </select>
          )}
        </FormField>
        <FormField
          id="upload-max-views"
          label={t("upload.options.maxViews")}
          hint={t("upload.options.maxViewsHint")}
          error={errors.maxViews}
        >
          {(a) => (
            <input
              {...a}
              className="input"
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              value={values.maxViews}
              disabled={disabled}
              onChange={(e) => onChange({ maxViews: e.currentTarget.value })}
            />
          )}
        </FormField>
      </div>

      <div className="field">
        <label className="check">
          <input
            id="upload-use-proxy"
            type="checkbox"
            checked={values.useProxy}
            disabled={disabled}
            aria-describedby="upload-use-proxy-hint"
            onChange={(e) => onChange({ useProxy: e.currentTarget.checked })}
          />
          <span>{t("upload.options.useProxy")}</span>
        </label>
        <p id="upload-use-proxy-hint" className="field-hint">{t("upload.options.useProxyHint")}</p>
      </div>

      <details className="upload-advanced">
        <summary>{t("upload.options.advanced")}</summary>
        <FormField
          id="upload-method"
          label={t("upload.options.method")}
          hint={t("upload.options.methodHint", { method: t(`upload.options.methods.${auto}`) })}
        >
          {(a) => (
            <select
              {...a}
              className="input"
              value={values.method}
              disabled={disabled}
              onChange={(e) => onChange({ method: e.currentTarget.value as MethodChoice })}
            >
              {METHOD_CHOICES.map((m) => (
                <option key={m} value={m}>{t(`upload.options.methods.${m}`)}</option>
              ))}
            </select>
          )}
        </FormField>
      </details>
    </div>
  );
}
