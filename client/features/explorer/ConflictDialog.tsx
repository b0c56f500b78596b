/**
 * Asks what to do with files a folder already holds, before an upload or a copy writes over
 * them (as File Browser and Cloudreve ask): overwrite them, skip them, or keep both (the new
 * ones get a numbered name such as "a (1).txt"). Cancel sends nothing.
 */
import { useTranslation } from "react-i18next";
import { Modal } from "../../components/Modal.tsx";

/** The answer: what happens to each name that is taken. */
export type ConflictChoice = "overwrite" | "skip" | "rename";

/** How many names the dialog lists before "and N more". */
const SHOWN = 8;

export function ConflictDialog(
  { names, dir, onChoose, onCancel }: {
    /** The names that are taken. */
    names: string[];
    /** The folder they are taken in. */
    dir: string;
    onChoose: (choice: ConflictChoice) => void;
    onCancel: () => void;
  },
) {
  const { t } = useTranslation();
  const rest = names.length - SHOWN;
  return (
    <Modal
      open
      alert
      size="medium"
      onClose={onCancel}
      title={t("explorer.conflict.title", { count: names.length, name: names[0], dir })}
      description={t("explorer.conflict.question", { count: names.length })}
      footer={
        <>
          <button type="button" className="btn" onClick={onCancel}>
            {t("common.cancel")}
          </button>
          <button type="button" className="btn" onClick={() => onChoose("skip")} data-autofocus>
            {t("explorer.conflict.skip")}
          </button>
          <button type="button" className="btn" onClick={() => onChoose("rename")}>
            {t("explorer.conflict.rename")}
          </button>
          <button type="button" className="btn btn-danger" onClick={() => onChoose("overwrite")}>
            {t("explorer.conflict.overwrite")}
          </button>
        </>
      }
    >
      <ul className="conflict-names">
        {names.slice(0, SHOWN).map((n) => <li key={n} className="entry-name">{n}</li>)}
        {rest > 0 && <li className="muted">{t("explorer.conflict.more", { count: rest })}</li>}
      </ul>
      <p className="field-hint">{t("explorer.conflict.hint")}</p>
    </Modal>
  );
}
