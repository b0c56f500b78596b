/**
 * The install card (install, later) and the update card (update, later), stacked at the
 * bottom of the screen. Neither renders on the server or before the browser decides.
 */
import { useTranslation } from "react-i18next";
import { dismissInstall, installApp, useInstallState } from "./install_prompt.ts";
import { acceptUpdate, postponeUpdate, useWorkerState } from "./worker_state.ts";

function PromptCard(
  { id, title, body, action, later, onAction, onLater }: {
    id: string;
    title: string;
    body: string;
    action: string;
    later: string;
    onAction: () => void;
    onLater: () => void;
  },
) {
  return (
    <div className="card pwa-card" role="dialog" aria-labelledby={`${id}-title`} data-testid={id}>
      <strong id={`${id}-title`}>{title}</strong>
      <p className="muted">{body}</p>
      <div className="pwa-card-actions">
        <button type="button" className="btn btn-primary btn-small" onClick={onAction}>
          {action}
        </button>
        <button type="button" className="btn btn-small" onClick={onLater}>{later}</button>
      </div>
    </div>
  );
}

/** The install and update prompt cards, when due. */
export function PwaCards() {
  const { t } = useTranslation();
  const { showCard, manual } = useInstallState();
  const { updateAvailable } = useWorkerState();
  if (!showCard && !updateAvailable) return null;
  return (
    <div className="pwa-cards">
      {updateAvailable && (
        <PromptCard
          id="pwa-update"
          title={t("pwa.update.title")}
          body={t("pwa.update.body")}
          action={t("pwa.update.update")}
          later={t("pwa.update.later")}
          onAction={acceptUpdate}
          onLater={postponeUpdate}
        />
      )}
      {showCard && (
        <PromptCard
          id="pwa-install"
          title={t("pwa.install.title")}
          body={t(manual ? "pwa.install.iosBody" : "pwa.install.body")}
          action={t(manual ? "pwa.install.gotIt" : "pwa.install.install")}
          later={t("pwa.install.later")}
          onAction={manual ? dismissInstall : () => void installApp()}
          onLater={dismissInstall}
        />
      )}
    </div>
  );
}
