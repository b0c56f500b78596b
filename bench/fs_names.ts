/**
 * The generated names and queries of the search bench (bench/fs.ts): a seeded PRNG, so every
 * run indexes the same names and asks the same questions.
 */

/** A seeded PRNG (mulberry32), so every run indexes the same names. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = prng(42);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
/** `n` zero-padded to `w` digits. */
export const pad = (n: number, w: number) => String(n).padStart(w, "0");

const WORDS =
  "invoice report budget holiday meeting draft final summary contract design backup archive project notes scan receipt photo video presentation schedule minutes proposal roadmap release customer vendor payroll audit inventory manual guide lecture thesis chapter sketch mockup export import statement quarterly annual weekly daily review feedback survey template checklist diagram letter"
    .split(" ");
const CJK =
  "会议 纪要 报告 合同 发票 预算 照片 视频 项目 设计 备份 归档 总结 计划 通知 简历 论文 手册 清单 草稿 年度 季度 客户 财务"
    .split(" ");
const EXTS = ["pdf", "docx", "xlsx", "jpg", "png", "txt", "md", "zip", "mp4", "pptx"] as const;

/** One generated name: camera files, word names, CJK names and names with a random token. */
export function makeName(i: number): string {
  const r = rand();
  if (r < 0.3) {
    const d = 20190101 + Math.floor(rand() * 6) * 10000 + Math.floor(rand() * 12) * 100 +
      Math.floor(rand() * 28);
    return `IMG_${d}_${pad(Math.floor(rand() * 240000), 6)}.jpg`;
  }
  if (r < 0.7) return `${pick(WORDS)}-${pick(WORDS)}-${pad(i % 1000, 3)}.${pick(EXTS)}`;
  if (r < 0.9) return `${pick(CJK)}${pick(CJK)}_${2019 + (i % 6)}.${pick(EXTS)}`;
  return `${pick(WORDS)}_${Math.floor(rand() * 0xffffffff).toString(16).padStart(8, "0")}.${
    pick(EXTS)
  }`;
}

/** A named class of queries of like selectivity. */
export type QueryClass = { name: string; queries: string[] };

/** `count` queries over `names`, in five classes of selectivity. */
export function makeQueries(names: string[], count: number): QueryClass[] {
  const per = Math.max(1, Math.floor(count / 5));
  const tokens = names.filter((n) => /_[0-9a-f]{8}\./.test(n));
  const rare = Array.from({ length: per }, () => pick(tokens).match(/_([0-9a-f]{8})\./)![1]);
  const camera = Array.from({ length: per }, () => {
    const n = pick(names.filter((n) => n.startsWith("IMG_")));
    return n.slice(4, 4 + 8 + 1 + 3); // e.g. 20210415_123: a day and an hour-ish
  });
  const word = Array.from({ length: per }, () => `${pick(WORDS)}-${pick(WORDS)}`);
  const common = Array.from(
    { length: per },
    (_, i) => [pick(WORDS), ".jpg", "img_", `.${pick(EXTS)}`][i % 4],
  );
  const short = Array.from(
    { length: count - 4 * per },
    (_, i) => i % 2 ? pick(CJK) : `${pick([..."bcdfghlmnprst"])}${pick([..."aeiou"])}`,
  );
  return [
    { name: "rare token (8 hex chars)", queries: rare },
    { name: "camera date and time prefix", queries: camera },
    { name: "two words", queries: word },
    { name: "one word or extension", queries: common },
    { name: "2 characters (bigram; half CJK)", queries: short },
  ];
}
