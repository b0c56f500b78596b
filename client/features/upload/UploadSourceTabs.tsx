/** Where files come from: "Files" (drop, choose, paste) or "From URL"; arrow keys move. */
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Tabs } from "../../components/Tabs.tsx";

const SOURCES = ["files", "url"] as const;

export function UploadSourceTabs({ files, url }: { files: ReactNode; url: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="upload-sources">
      <Tabs
        ids={SOURCES}
        label={t("upload.source.label")}
        tabLabel={(id) => t(`upload.source.${id}`)}
        panel={(id) => id === "files" ? files : url}
        panelClassName="upload-source-panel"
      />
    </div>
  );
}
