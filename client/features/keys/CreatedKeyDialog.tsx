/**
 * Shows a newly created key in full, once, with a copy button and a warning; a key that may
 * share files also gets its ready uploaders (ShareX, curl, Flameshot).
 */
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Modal } from "../../components/Modal.tsx";
import { CopyButton } from "../../components/CopyButton.tsx";
import { CopyText } from "../../components/CopyText.tsx";
import { FormField } from "../../components/FormField.tsx";
import { UploaderConfigs } from "./UploaderConfigs.tsx";

/** The one-time display of a new key's full value. */
export function CreatedKeyDialog(
  { apiKey, name, canShareFiles, onClose }: {
    apiKey: string;
    /** The key's name (names the ShareX uploader). */
    name: string;
    /** Whether the key may share files (then its uploaders are offered). */
    canShareFiles: boolean;
    onClose: () => void;
  },
) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Modal
      open
      size={canShareFiles ? "large" : undefined}
      onClose={onClose}
      title={t("keys.created.title")}
      description={t("keys.created.warning")}
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose}>
          {t("keys.created.done")}
        </button>
      }
    >
      <FormField id={`${id}-key`} label={t("keys.created.keyLabel")}>
        {(a) => (
          <div className="input-group">
            <CopyText
              {...a}
              className="input-mono"
              value={apiKey}
              data-autofocus
              spellCheck={false}
            />
            <CopyButton text={apiKey} label={t("keys.created.copy")} className="btn btn-primary" />
          </div>
        )}
      </FormField>
      {canShareFiles && (
        <UploaderConfigs target={{ origin: globalThis.location.origin, key: apiKey, name }} />
      )}
    </Modal>
  );
}
