/** The breadcrumb trail of the current folder; the root is "All mounts". */
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { crumbsOf, explorerHref } from "./explorer_paths.ts";

export function Breadcrumbs({ path }: { path: string }) {
  const { t } = useTranslation();
  const crumbs = crumbsOf(path);
  return (
    <nav className="explorer-crumbs" aria-label={t("explorer.crumbs")}>
      <ol>
        {crumbs.map((c, i) => {
          const last = i === crumbs.length - 1;
          const label = c.name || t("explorer.root");
          return (
            <li key={c.path}>
              {last
                ? <span aria-current="page">{label}</span>
                : <Link to={explorerHref(c.path)}>{label}</Link>}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
