/**
 * An accessible modal dialog built on the native <dialog> element: showModal() gives the
 * focus trap, the inert background and Escape for free. The dialog is named by its title,
 * focus moves into it on open (the [data-autofocus] element, else the first field, else the
 * first button) and
 * returns to whatever had it before on close. Render it only on the client (it is closed on
 * the server, where it renders nothing).
 */
import { type MouseEvent, type ReactNode, useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { DialogButtons } from "./DialogButtons.tsx";

export type ModalProps = {
  open: boolean;
  /** Called on Escape, the close button or a backdrop click (unless `dismissible` is false). */
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Buttons shown at the bottom, right-aligned. */
  footer?: ReactNode;
  /** Extra description linked with aria-describedby (e.g. a confirmation question). */
  description?: ReactNode;
  size?: "small" | "medium" | "large";
  /** When false, Escape and the backdrop do not close it (e.g. while saving). */
  dismissible?: boolean;
  /** role="alertdialog" for confirmations. */
  alert?: boolean;
  className?: string;
};

const FIELDS =
  ".modal-body :is(input:not([type=hidden]), select, textarea, [tabindex='0']):not([disabled])";
const BUTTONS = ".modal-content :is(button:not([disabled]):not(.modal-close), a[href])";

/** A modal dialog, rendered only while `open`. */
export function Modal(props: ModalProps) {
  if (!props.open) return null;
  return <OpenModal {...props} />;
}

function OpenModal(
  {
    onClose,
    title,
    children,
    footer,
    description,
    size = "medium",
    dismissible = true,
    alert = false,
    className,
  }: ModalProps,
) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const dismissibleRef = useRef(dismissible);
  dismissibleRef.current = dismissible;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previous = document.activeElement as HTMLElement | null;
    if (!dialog.open) dialog.showModal();
    const first = dialog.querySelector<HTMLElement>("[data-autofocus]") ??
      dialog.querySelector<HTMLElement>(FIELDS) ?? dialog.querySelector<HTMLElement>(BUTTONS) ??
      dialog.querySelector<HTMLElement>(".modal-close");
    first?.focus();
    const onCancel = (e: Event) => {
      e.preventDefault();
      if (dismissibleRef.current) onCloseRef.current();
    };
    dialog.addEventListener("cancel", onCancel);
    return () => {
      dialog.removeEventListener("cancel", onCancel);
      if (dialog.open) dialog.close();
      if (previous && previous.isConnected) previous.focus();
    };
  }, []);

  const onBackdrop = (e: MouseEvent<HTMLDialogElement>) => {
    // A click on the <dialog> itself (not its content) is a click on the backdrop.
    if (e.target === ref.current && dismissibleRef.current) onCloseRef.current();
  };

  return (
    <dialog
      ref={ref}
      className={`modal modal-${size}${className ? ` ${className}` : ""}`}
      role={alert ? "alertdialog" : undefined}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={description ? descId : undefined}
      onClick={onBackdrop}
    >
      <div className="modal-content">
        <header className="modal-header">
          <h2 id={titleId} className="modal-title">{title}</h2>
          {dismissible && (
            <button
              type="button"
              className="btn btn-icon modal-close"
              aria-label={t("common.close")}
              onClick={() => onCloseRef.current()}
            >
              <span aria-hidden="true">×</span>
            </button>
          )}
        </header>
        <div className="modal-body">
          {description && <p id={descId} className="modal-description">{description}</p>}
          {children}
        </div>
        {footer && <footer className="modal-footer">{footer}</footer>}
      </div>
    </dialog>
  );
}

/** A yes/no confirmation built on Modal; `danger` styles the confirm button red. */
export function ConfirmDialog(
  {
    open,
    title,
    message,
    confirmLabel,
    onConfirm,
    onCancel,
    busy = false,
    danger = false,
    children,
  }: {
    open: boolean;
    title: ReactNode;
    message: ReactNode;
    confirmLabel: string;
    onConfirm: () => void;
    onCancel: () => void;
    busy?: boolean;
    danger?: boolean;
    /** Choices below the question (a delete mode…). */
    children?: ReactNode;
  },
) {
  return (
    <Modal
      open={open}
      onClose={onCancel}
      title={title}
      description={message}
      size="small"
      alert
      dismissible={!busy}
      footer={
        <DialogButtons
          onCancel={onCancel}
          cancelDisabled={busy}
          focusCancel
          label={confirmLabel}
          onConfirm={onConfirm}
          disabled={busy}
          busy={busy}
          danger={danger}
        />
      }
    >
      {children ?? null}
    </Modal>
  );
}
