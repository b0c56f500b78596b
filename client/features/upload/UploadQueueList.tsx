/** The queue of chosen files, with "cancel all" and "clear finished". */
import { useTranslation } from "react-i18next";
import { isActive, isFinished, type QueueItem } from "./upload_queue.ts";
import { UploadItemRow } from "./UploadItemRow.tsx";
import { SmallButtons } from "../../components/ListTable.tsx";

export function UploadQueueList(
  { items, onCancel, onRetry, onRemove, onCancelAll, onClearFinished }: {
    items: QueueItem[];
    onCancel: (id: string) => void;
    onRetry: (item: QueueItem) => void;
    onRemove: (id: string) => void;
    onCancelAll: () => void;
    onClearFinished: () => void;
  },
) {
  const { t } = useTranslation();
  const anyActive = items.some(isActive);
  const anyFinished = items.some(isFinished);
  return (
    <section className="card upload-queue" aria-labelledby="upload-queue-title">
      <div className="upload-section-head">
        <h2 id="upload-queue-title">
          {t("upload.queue.title")}
          {items.length > 0 && <span className="upload-queue-count">{items.length}</span>}
        </h2>
        <div className="upload-queue-actions">
          <SmallButtons
            actions={[
              {
                key: "cancelAll",
                label: t("upload.queue.cancelAll"),
                onClick: onCancelAll,
                hidden: !anyActive,
              },
              {
                key: "clearFinished",
                label: t("upload.queue.clearFinished"),
                onClick: onClearFinished,
                hidden: !anyFinished,
                tone: "btn-ghost",
              },
            ]}
          />
        </div>
      </div>
      {items.length === 0
        ? <p className="muted upload-queue-empty">{t("upload.queue.empty")}</p>
        : (
          <ul className="upload-queue-list" aria-labelledby="upload-queue-title">
            {items.map((item) => (
              <UploadItemRow
                key={item.id}
                item={item}
                onCancel={() => onCancel(item.id)}
                onRetry={() => onRetry(item)}
                onRemove={() => onRemove(item.id)}
              />
            ))}
          </ul>
        )}
    </section>
  );
}
