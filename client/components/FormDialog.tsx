/**
 * A form in a modal dialog with Cancel and Save below: the shell of every create and edit
 * dialog. While `busy` the dialog cannot be dismissed and both buttons are disabled. A refusal
 * that concerns no single field is shown at the top of the form, in view.
 */
import type { FormEvent, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Modal, type ModalProps } from "./Modal.tsx";
import { DialogButtons } from "./DialogButtons.tsx";
import { FormAlert } from "./FormAlert.tsx";

export function FormDialog(
  {
    title,
    texts,
    editingName,
    formId,
    formClassName,
    form,
    onClose,
    busyLabel,
    submitLabel,
    size = "large",
    className,
    error,
    children,
  }: {
    /** The title; when absent, `<texts>.createTitle` or `<texts>.editTitle` with the name. */
    title?: ReactNode;
    /** An i18n namespace with createTitle, editTitle and saving (`mounts.form`). */
    texts?: string;
    /** The name of the item being edited; absent when creating one. */
    editingName?: string;
    /** The form's id, which the Save button submits. */
    formId: string;
    /** The form's own class, besides `form`. */
    formClassName?: string;
    /** Saving: `submit` on Save, `busy` while it runs. */
    form: { submit: (e: FormEvent) => void; busy: boolean };
    onClose: () => void;
    /** Shown on the Save button while saving; "Save" stays when absent. */
    busyLabel?: string;
    /** The submit button's text; "Save" when absent. */
    submitLabel?: string;
    /** Large unless told. */
    size?: ModalProps["size"];
    className?: string;
    /** A refusal that concerns no single field, shown at the top of the form. */
    error?: string | null;
    children: ReactNode;
  },
) {
  const { t } = useTranslation();
  const { submit, busy } = form;
  const heading = title ??
    (editingName === undefined
      ? t(`${texts}.createTitle`)
      : t(`${texts}.editTitle`, { name: editingName }));
  const savingLabel = busyLabel ?? (texts ? t(`${texts}.saving`) : undefined);
  return (
    <Modal
      open
      title={heading}
      onClose={onClose}
      dismissible={!busy}
      size={size}
      className={className}
      footer={
        <DialogButtons
          onCancel={onClose}
          cancelDisabled={busy}
          label={busy && savingLabel ? savingLabel : submitLabel ?? t("common.save")}
          form={formId}
          disabled={busy}
          busy={busy}
        />
      }
    >
      <form
        id={formId}
        className={formClassName ? `form ${formClassName}` : "form"}
        onSubmit={submit}
        noValidate
      >
        <FormAlert text={error} />
        {children}
      </form>
    </Modal>
  );
}
