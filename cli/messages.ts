/**
 * The command-line client's texts in both of Cubby's languages, picked from the system locale
 * (Chinese locales get zh-CN, every other en-US), which also goes to the server as
 * Accept-Language so its own messages match.
 */

export const TEXTS = {
  "en-US": {
    usage: `Cubby end-to-end encrypted shares

  send [FILE|-]   Encrypt FILE (or standard input) and upload it; prints the link with its key.
      --key KEY          API key with the file (or text) permission; default $CUBBY_API_KEY
      --server URL       Cubby server; default the one this script came from, or $CUBBY_URL
      --text             Make a text share instead of a file (UTF-8, 10 MB at most)
      --name NAME        File name (default: the file's; "stdin" for standard input)
      --type TYPE        Media type (default: from the name)
      --password         Mix a password into the key ($CUBBY_PASSWORD, or asked)
      --expires HOURS    Expire after this many hours
      --max-views N      Allow N views
      --remark TEXT      A remark (not encrypted)

  get LINK        Fetch and decrypt a share; counts one view.
      -o, --output PATH  Where to write ("-" for standard output). Default: the file's own
                         name in this directory; standard output for text shares
      --force            Overwrite an existing file

  decrypt KEY     Decrypt a ciphertext on standard input to standard output (--password too).
`,
    error: "error: {{message}}",
    saved: "saved {{path}}",
    passwordPrompt: "Password: ",
    passwordNeeded: "a password is needed: set CUBBY_PASSWORD (standard input is not a terminal)",
    cancelled: "cancelled",
    noServer: "no server: pass --server URL or set CUBBY_URL",
    noApiKey: "an API key is needed: --key KEY or CUBBY_API_KEY",
    unreachable: "cannot reach {{origin}}: {{reason}}",
    notAFile: "{{path}} is not a file",
    textTooLarge: "a text share holds at most {{max}} bytes",
    textNotUtf8: "a text share must be UTF-8 text",
    uploadFailed: "upload failed: {{reason}}",
    notALink: "not a link: {{link}}",
    notAShareLink: "not a Cubby share link (/paste/… or /file/…)",
    noKey: "the link has no key (the part after #)",
    badKey: "the key in the link is malformed",
    badKeyArg: "the key is malformed",
    notEncrypted: "this share is not end-to-end encrypted",
    wrongPassword: "wrong password (or a wrong key)",
    wrongKey: "wrong key",
    exists: "{{path}} exists (use --force)",
    newerFormat: "this share uses a newer encryption format",
    damaged: "the encrypted data was altered or is damaged (nothing was kept)",
    downloadFailed: "download failed: HTTP {{status}}",
  },
  "zh-CN": {
    usage: `Cubby 端到端加密分享

  send [文件|-]   加密文件（或标准输入）并上传，输出带密钥的链接。
      --key KEY          具有文件（或文本）权限的 API 密钥；默认取 $CUBBY_API_KEY
      --server URL       Cubby 服务器；默认为提供本脚本的服务器，或 $CUBBY_URL
      --text             创建文本分享而不是文件（UTF-8，最多 10MB）
      --name NAME        文件名（默认取文件本身的名称；标准输入为 "stdin"）
      --type TYPE        媒体类型（默认按文件名判断）
      --password         将密码混入密钥（取 $CUBBY_PASSWORD，或在终端询问）
      --expires HOURS    若干小时后过期
      --max-views N      最多允许查看 N 次
      --remark TEXT      备注（不加密）

  get 链接        获取并解密分享；计一次查看。
      -o, --output PATH  写入位置（"-" 为标准输出）。默认：文件以其原名保存在当前目录；
                         文本分享输出到标准输出
      --force            覆盖已存在的文件

  decrypt 密钥    将标准输入中的密文解密到标准输出（也可加 --password）。
`,
    error: "错误：{{message}}",
    saved: "已保存 {{path}}",
    passwordPrompt: "密码：",
    passwordNeeded: "需要密码：请设置 CUBBY_PASSWORD（标准输入不是终端）",
    cancelled: "已取消",
    noServer: "没有服务器：请使用 --server URL 或设置 CUBBY_URL",
    noApiKey: "需要 API 密钥：--key KEY 或 CUBBY_API_KEY",
    unreachable: "无法连接 {{origin}}：{{reason}}",
    notAFile: "{{path}} 不是文件",
    textTooLarge: "文本分享最多 {{max}} 字节",
    textNotUtf8: "文本分享必须是 UTF-8 文本",
    uploadFailed: "上传失败：{{reason}}",
    notALink: "不是链接：{{link}}",
    notAShareLink: "不是 Cubby 分享链接（/paste/… 或 /file/…）",
    noKey: "链接中没有密钥（# 之后的部分）",
    badKey: "链接中的密钥格式无效",
    badKeyArg: "密钥格式无效",
    notEncrypted: "此分享没有端到端加密",
    wrongPassword: "密码错误（或密钥错误）",
    wrongKey: "密钥错误",
    exists: "{{path}} 已存在（使用 --force 覆盖）",
    newerFormat: "此分享使用了更新的加密格式",
    damaged: "加密数据已被篡改或已损坏（未保留任何内容）",
    downloadFailed: "下载失败：HTTP {{status}}",
  },
} as const;

export type Language = keyof typeof TEXTS;
export type TextId = keyof typeof TEXTS["en-US"];

/** The language of the system locale: zh-CN for Chinese, en-US otherwise. */
export const LANGUAGE: Language = (() => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().locale.toLowerCase().startsWith("zh")
      ? "zh-CN"
      : "en-US";
  } catch {
    return "en-US";
  }
})();

/** A text in the client's language, with `{{name}}` filled from `params`. */
export function text(id: TextId, params: Record<string, string | number> = {}): string {
  return TEXTS[LANGUAGE][id].replace(
    /\{\{(\w+)\}\}/g,
    (m, k) => (k in params ? String(params[k]) : m),
  );
}
