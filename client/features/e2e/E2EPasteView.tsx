/**
 * The body of an end-to-end encrypted paste's page. The server renders it without content (it
 * has only ciphertext, and rendering must not count a view); after hydration the key is read
 * from the fragment, the password asked when one is mixed in, the share opened with the access
 * token (one counted view) and the text decrypted here. Nothing is shown unless all of it
 * authenticated; every failure is explained (E2EProblem).
 */
import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApiError } from "../../api/client.ts";
import type { E2EDescriptor } from "../../../shared/e2e/descriptor.ts";
import { useRenderedMarkdown } from "../../components/MarkdownView.tsx";
import { PasteContent } from "../pastes/PasteContent.tsx";
import { ShareLink, shareUrl } from "../pastes/ShareLink.tsx";
import type { PasteView } from "../pastes/pastes_api.ts";
import { E2EOpening } from "./E2EOpening.tsx";
import { useE2EOpen } from "./use_e2e_open.ts";
import { useIsClient } from "../../components/ShareFacts.tsx";

/** Larger texts are first shown plain, as on other paste pages. */
const AUTO_RENDER_MAX_BYTES = 512 * 1024;

type Opened = { paste: PasteView; text: string };

export function E2EPasteView(
  { slug, descriptor, onGone }: {
    slug: string;
    descriptor: E2EDescriptor;
    /** Ends the page for a share that is gone or used up (the caller's error screen). */
    onGone: (err: ApiError) => void;
  },
) {
  const { t } = useTranslation();
  const isClient = useIsClient();
  const open = useCallback(
    async (hash: string, password: string | null) =>
      (await import("./e2e_open.ts")).openEncryptedPaste(slug, descriptor, hash, password),
    [slug, descriptor],
  );
  const opening = useE2EOpen<Opened>("paste", descriptor, open, onGone);
  const state = opening.state;

  return (
    <>
      <p>
        <span className="badge badge-primary">{t("e2e.badge")}</span>
      </p>
      <E2EOpening
        opening={opening}
        ready={isClient}
        className="paste-loading"
        text={t("e2e.decrypting")}
      />
      {state.kind === "ready" && <DecryptedText text={state.value.text} />}
      {state.kind === "ready" && (
        <section className="paste-share" aria-labelledby="paste-share-title">
          <h2 id="paste-share-title">{t("paste.share.title")}</h2>
          <ShareLink url={shareUrl({ slug }) + globalThis.location.hash} showOpen={false} />
        </section>
      )}
    </>
  );
}

/** The decrypted text, rendered as Markdown; "raw" opens the plaintext from memory. */
function DecryptedText({ text }: { text: string }) {
  const [renderLarge, setRenderLarge] = useState(false);
  const large = text.length > AUTO_RENDER_MAX_BYTES;
  const plain = large && !renderLarge;
  const html = useRenderedMarkdown(plain ? null : text);
  const rawHref = useMemo(
    () => URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" })),
    [text],
  );
  useEffect(() => () => URL.revokeObjectURL(rawHref), [rawHref]);
  return (
    <PasteContent
      content={text}
      html={plain ? null : html}
      plain={plain}
      rawHref={rawHref}
      onRenderLarge={() => setRenderLarge(true)}
    />
  );
}
