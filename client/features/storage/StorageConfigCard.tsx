/** One storage config as a card: kind, where it stores, badges, usage against its quota, actions. */
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { type SmallAction, SmallButtons } from "../../components/ListTable.tsx";
import { formatBytes } from "../../lib/format.ts";
import type { StorageConfigView } from "./storage_api.ts";

/** Used space with a bar when there is a quota. */
function Usage({ config }: { config: StorageConfigView }) {
  const { t } = useTranslation();
  const total = config.total_storage_bytes;
  if (total === null) {
    return (
      <p className="storage-usage-text">
        {t("storage.card.usedNoQuota", { used: formatBytes(config.used_bytes) })}
      </p>
    );
  }
  const ratio = total > 0 ? Math.min(1, config.used_bytes / total) : 1;
  const percent = Math.round(ratio * 100);
  const level = ratio >= 0.9 ? "high" : ratio >= 0.7 ? "mid" : "low";
  return (
    <div className="storage-usage">
      <p className="storage-usage-text">
        {t("storage.card.usedOf", {
          used: formatBytes(config.used_bytes),
          total: formatBytes(total),
          percent,
        })}
      </p>
      <div className={`meter meter-${level} storage-usage-bar`} aria-hidden="true">
        <span style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

export function StorageConfigCard(
  { config, onEdit, onTest, onSetDefault, onDelete, busy }: {
    config: StorageConfigView;
    onEdit: () => void;
    onTest: () => void;
    onSetDefault: () => void;
    onDelete: () => void;
    busy?: boolean;
  },
) {
  const { t } = useTranslation();
  const titleId = `storage-card-${config.id}`;
  const local = config.storage_type === "local";
  const aria = (key: string) => t(`storage.card.${key}Label`, { name: config.name });
  const actions: SmallAction[] = [
    { key: "edit", label: t("common.edit"), aria: aria("edit"), onClick: onEdit },
    { key: "test", label: t("storage.card.test"), aria: aria("test"), onClick: onTest },
    ...(config.is_default ? [] : [{
      key: "setDefault",
      label: t("storage.card.setDefault"),
      aria: aria("setDefault"),
      onClick: onSetDefault,
      disabled: busy,
    }]),
    {
      key: "delete",
      label: t("common.delete"),
      aria: aria("delete"),
      onClick: onDelete,
      tone: "btn-danger-outline",
    },
  ];
  return (
    <article className="card storage-card" aria-labelledby={titleId}>
      <header className="storage-card-head">
        <h2 id={titleId} className="storage-card-title">{config.name}</h2>
        <ul className="badge-list">
          <li className="badge">{t(`storage.providers.${config.provider_type}`)}</li>
          {config.is_default && <li className="badge badge-primary">{t("storage.card.default")}
          </li>}
          <li className={config.is_public ? "badge badge-success" : "badge"}>
            {config.is_public ? t("storage.card.public") : t("storage.card.private")}
          </li>
        </ul>
      </header>

      {config.single_host_warning && (
        <p className="alert alert-warning storage-single-host">
          {t("storage.card.singleHost")}
        </p>
      )}
      <dl className="details storage-details">
        {local
          ? (
            <>
              <dt>{t("storage.card.rootDir")}</dt>
              <dd>
                <code>{config.root_dir ?? "—"}</code>
              </dd>
            </>
          )
          : (
            <>
              <dt>{t("storage.card.bucket")}</dt>
              <dd>
                <code>{config.bucket_name}</code>
              </dd>
              <dt>{t("storage.card.endpoint")}</dt>
              <dd>
                {config.endpoint_url
                  ? <code>{config.endpoint_url}</code>
                  : t("storage.card.awsDefault")}
              </dd>
              {config.region && (
                <>
                  <dt>{t("storage.card.region")}</dt>
                  <dd>{config.region}</dd>
                </>
              )}
              <dt>{t("storage.card.accessKey")}</dt>
              <dd>
                <code>{config.access_key_id_masked || "—"}</code>
              </dd>
              {([
                ["defaultFolder", config.default_folder],
                ["customHost", config.custom_host],
              ] as const).map(([key, value]) =>
                value && (
                  <Fragment key={key}>
                    <dt>{t(`storage.card.${key}`)}</dt>
                    <dd>
                      <code>{value}</code>
                    </dd>
                  </Fragment>
                )
              )}
            </>
          )}
      </dl>

      <Usage config={config} />

      <footer className="storage-card-actions">
        <SmallButtons actions={actions} />
      </footer>
    </article>
  );
}
