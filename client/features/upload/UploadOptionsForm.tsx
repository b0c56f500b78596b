/**
 * The upload options (docs/PRODUCT.md §3.11): storage config, the shared share options (link suffix
 * for one file only, remark, password, expiry preset, max views), proxy flag, and under "Advanced"
 * the upload method.
 */
import { configLabels } from "../storage/config_labels.ts";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { paths } from "../../../shared/app_paths.ts";
import type { StorageConfigView } from "./upload_api.ts";
import {
  METHOD_CHOICES,
  type MethodChoice,
  methodFor,
  type UploadFormValues,
} from "./upload_form.ts";
import { CheckField, SelectField } from "../../components/FormField.tsx";
import { ShareOptions } from "../../components/ShareOptions.tsx";
import { formatBytes } from "../../lib/format.ts";
import { RetryAlert } from "../../components/RetryAlert.tsx";
import { E2EToggle } from "../e2e/E2EToggle.tsx";

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
  const labels = configLabels(configs ?? []);
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
          <SelectField
            id="upload-config"
            label={t("upload.options.storage")}
            hint={selected ? <ConfigUsage config={selected} /> : undefined}
            value={values.configId}
            disabled={disabled || !configs}
            onChange={(v) => onChange({ configId: v })}
          >
            {!configs && <option value="">{t("common.loading")}</option>}
            {configs?.map((c) => (
              <option key={c.id} value={c.id}>
                {`${labels.get(c.id) ?? c.name} (${t(`storage.providers.${c.provider_type}`)})${
                  c.is_default ? ` · ${t("upload.options.storageDefault")}` : ""
                }`}
              </option>
            ))}
          </SelectField>
        )}

      <E2EToggle
        id="upload-e2e"
        checked={values.e2e}
        disabled={disabled}
        onChange={(e2e) => onChange({ e2e })}
      />

      <ShareOptions
        idPrefix="upload"
        texts="upload.options"
        layout="upload"
        values={values}
        onChange={(patch) => onChange(patch as Partial<UploadFormValues>)}
        errors={errors}
        disabled={disabled}
        slugOff={slugUsable ? undefined : t("upload.options.slugSingleOnly")}
      />

      <CheckField
        id="upload-use-proxy"
        label={t("upload.options.useProxy")}
        hint={t("upload.options.useProxyHint")}
        checked={values.useProxy}
        disabled={disabled}
        onChange={(useProxy) => onChange({ useProxy })}
      />

      <details className="upload-advanced">
        <summary>{t("upload.options.advanced")}</summary>
        <SelectField
          id="upload-method"
          label={t("upload.options.method")}
          hint={t("upload.options.methodHint", { method: t(`upload.options.methods.${auto}`) })}
          value={values.method}
          disabled={disabled}
          onChange={(v) => onChange({ method: v as MethodChoice })}
        >
          {METHOD_CHOICES.map((m) => (
            <option key={m} value={m}>{t(`upload.options.methods.${m}`)}</option>
          ))}
        </SelectField>
      </details>
    </div>
  );
}
