/** Where files come from: "Files" (drop, choose, paste) or "From URL"; arrow keys move. */
import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

const SOURCES = ["files", "url"] as const;
type Source = typeof SOURCES[number];

export function UploadSourceTabs({ files, url }: { files: ReactNode; url: ReactNode }) {
  const { t } = useTranslation();
  const baseId = useId();
  const [tab, setTab] = useState<Source>("files");
  const refs = useRef<Partial<Record<Source, HTMLButtonElement | null>>>({});

  const onKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const i = SOURCES.indexOf(tab);
    const next = e.key === "ArrowRight"
      ? SOURCES[(i + 1) % SOURCES.length]
      : e.key === "ArrowLeft"
      ? SOURCES[(i + SOURCES.length - 1) % SOURCES.length]
      : e.key === "Home"
      ? SOURCES[0]
      : e.key === "End"
      ? SOURCES[SOURCES.length - 1]
      : null;
    if (!next) return;
    e.preventDefault();
    setTab(next);
    refs.current[next]?.focus();
  };

  return (
    <div className="upload-sources">
      <div className="tabs" role="tablist" aria-label={t("upload.source.label")}>
        {SOURCES.map((id) => (
          <button
            key={id}
            ref={(el) => {
              refs.current[id] = el;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${id}`}
            aria-selected={tab === id}
            aria-controls={`${baseId}-panel-${id}`}
            tabIndex={tab === id ? 0 : -1}
            className={`tab${tab === id ? " active" : ""}`}
            onClick={() => setTab(id)}
            onKeyDown={onKey}
          >
            {t(`upload.source.${id}`)}
          </button>
        ))}
      </div>
      {SOURCES.map((id) => (
        <div
          key={id}
          role="tabpanel"
          id={`${baseId}-panel-${id}`}
          aria-labelledby={`${baseId}-tab-${id}`}
          className="upload-source-panel"
          hidden={tab !== id}
        >
          {id === "files" ? files : url}
        </div>
      ))}
    </div>
  );
}
