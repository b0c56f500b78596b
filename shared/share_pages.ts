/**
 * The paths of the share pages, which the server renders and the share entry hydrates
 * (client/share_main.tsx); the one group is the slug, percent-encoded.
 */
export const SHARE_PAGE_PATTERNS = {
  paste: /^\/paste\/([^/]+)\/?$/,
  file: /^\/file\/([^/]+)\/?$/,
} as const;
