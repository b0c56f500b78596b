/**
 * The error catalogue: every stable snake_case error code with its text in both languages.
 * The server puts the code in `error` and the localised text in `message`; the client shows
 * `errors.<code>` from the same table, so the two never drift apart.
 * Texts use i18next-style `{{name}}` placeholders.
 */
import type { Language } from "./constants.ts";

type Entry = { "zh-CN": string; "en-US": string };

export const ERROR_CATALOGUE = {
  // Generic server errors
  internal: { "zh-CN": "服务器内部错误", "en-US": "Internal server error" },
  validation_failed: { "zh-CN": "请求参数无效", "en-US": "Invalid request" },
  invalid_json: { "zh-CN": "请求体不是有效的 JSON", "en-US": "Request body is not valid JSON" },
  payload_too_large: { "zh-CN": "请求体过大", "en-US": "Request body is too large" },
  not_found: { "zh-CN": "资源不存在", "en-US": "Not found" },
  route_not_found: { "zh-CN": "接口不存在", "en-US": "No such API route" },
  method_not_allowed: { "zh-CN": "不支持的请求方法", "en-US": "Method not allowed" },
  forbidden: { "zh-CN": "没有权限执行此操作", "en-US": "You do not have permission to do this" },
  unauthorized: {
    "zh-CN": "未授权访问，请登录后重试",
    "en-US": "Unauthorised, please log in and try again",
  },
  conflict: { "zh-CN": "资源冲突", "en-US": "Conflict" },
  too_many_requests: {
    "zh-CN": "尝试次数过多，请 {{seconds}} 秒后再试",
    "en-US": "Too many attempts, try again in {{seconds}} seconds",
  },
  // Auth and account
  invalid_credentials: { "zh-CN": "用户名或密码错误", "en-US": "Invalid username or password" },
  invalid_token: { "zh-CN": "无效的令牌", "en-US": "Invalid token" },
  session_expired: {
    "zh-CN": "管理员会话已过期，请重新登录",
    "en-US": "Admin session expired, please log in again",
  },
  api_key_invalid: { "zh-CN": "API密钥无效或已过期", "en-US": "API key is invalid or expired" },
  api_key_verify_failed: { "zh-CN": "API密钥验证失败", "en-US": "API key verification failed" },
  api_key_permission_denied: {
    "zh-CN": "API密钥权限不足",
    "en-US": "Insufficient API key permissions",
  },
  api_key_unauthorized: {
    "zh-CN": "无效或未授权的API密钥",
    "en-US": "Invalid or unauthorised API key",
  },
  permission_info_failed: {
    "zh-CN": "无法获取权限信息",
    "en-US": "Cannot get permission info",
  },
  login_failed: { "zh-CN": "登录失败", "en-US": "Login failed" },
  login_missing_token: {
    "zh-CN": "登录响应中缺少token",
    "en-US": "The login response is missing a token",
  },
  invalid_response_format: {
    "zh-CN": "服务器响应格式无效",
    "en-US": "Invalid server response format",
  },
  server_error: { "zh-CN": "服务器错误", "en-US": "Server error" },
  auth_failed: {
    "zh-CN": "认证失败，请重新登录",
    "en-US": "Authentication failed, please log in again",
  },
  wrong_current_password: { "zh-CN": "当前密码错误", "en-US": "Current password is incorrect" },
  password_unchanged: {
    "zh-CN": "新密码不能与当前密码相同",
    "en-US": "The new password must differ from the current one",
  },
  nothing_to_change: {
    "zh-CN": "请至少填写新用户名或新密码",
    "en-US": "Enter a new username or a new password",
  },
  verify_failed: { "zh-CN": "验证失败", "en-US": "Verification failed" },
  // API keys
  api_key_not_found: { "zh-CN": "API密钥不存在", "en-US": "API key not found" },
  api_key_exists: { "zh-CN": "该密钥已存在", "en-US": "This key already exists" },
  api_key_name_exists: {
    "zh-CN": "密钥名称已存在",
    "en-US": "A key with this name already exists",
  },
  // Pastes and shares
  paste_not_found: { "zh-CN": "分享不存在", "en-US": "Share not found" },
  paste_expired: { "zh-CN": "分享已过期或不可用", "en-US": "This share has expired or is used up" },
  password_required: { "zh-CN": "需要密码", "en-US": "A password is required" },
  wrong_password: { "zh-CN": "密码错误", "en-US": "Wrong password" },
  wrong_password_retry: { "zh-CN": "密码错误，请重试", "en-US": "Wrong password, please retry" },
  slug_taken: {
    "zh-CN": "链接后缀已被占用，请尝试其他后缀",
    "en-US": "This link suffix is taken, please use another suffix",
  },
  slug_invalid: {
    "zh-CN": "链接后缀只能包含字母、数字、连字符和下划线，最多 50 个字符",
    "en-US": "A link suffix may contain only letters, digits, hyphens and underscores (50 at most)",
  },
  slug_reserved: { "zh-CN": "该链接后缀为系统保留", "en-US": "This link suffix is reserved" },
  content_empty: { "zh-CN": "内容不能为空", "en-US": "Content must not be empty" },
  content_too_large: {
    "zh-CN": "内容过大，最多 10MB",
    "en-US": "Content is too large (10MB at most)",
  },
  max_views_invalid: {
    "zh-CN": "最大查看次数不能为负数",
    "en-US": "Max views must not be negative",
  },
  expires_at_invalid: { "zh-CN": "过期时间无效", "en-US": "Invalid expiry time" },
  save_failed: { "zh-CN": "保存失败", "en-US": "Save failed" },
  not_creator: {
    "zh-CN": "只有创建者或管理员可以执行此操作",
    "en-US": "Only the creator or an admin can do this",
  },
  remark_too_long: {
    "zh-CN": "备注过长，最多 1000 个字符",
    "en-US": "The remark is too long (1000 characters at most)",
  },
  // Client-side transport errors (spec §8)
  request_failed: { "zh-CN": "请求失败", "en-US": "Request failed" },
  http_error: { "zh-CN": "HTTP错误 {{status}}", "en-US": "HTTP error {{status}}" },
  request_aborted: {
    "zh-CN": "请求被取消或超时",
    "en-US": "The request was cancelled or timed out",
  },
  request_timeout: {
    "zh-CN": "请求超时，服务器响应时间过长",
    "en-US": "Request timed out, the server took too long to respond",
  },
  network_error: {
    "zh-CN": "网络连接失败，请检查网络设置",
    "en-US": "Network connection failed, please check your network",
  },
  server_not_responding: { "zh-CN": "服务器无响应", "en-US": "The server is not responding" },
  no_update_permission: { "zh-CN": "没有更新权限", "en-US": "No permission to update" },
  content_over_server_limit: {
    "zh-CN": "内容超过服务器限制",
    "en-US": "Content exceeds the server limit",
  },
  // PWA and offline (spec §8)
  sync_failed: { "zh-CN": "离线数据同步失败", "en-US": "Offline sync failed" },
  preload_failed: { "zh-CN": "页面资源加载失败", "en-US": "Failed to load page resources" },
  push_not_supported: {
    "zh-CN": "浏览器不支持推送通知",
    "en-US": "Push notifications are not supported",
  },
  sync_status_timeout: { "zh-CN": "获取状态超时", "en-US": "Timed out getting the status" },
  sw_inactive: { "zh-CN": "Service Worker未激活", "en-US": "Service Worker is not active" },
  // Storage
  storage_object_not_found: { "zh-CN": "文件不存在", "en-US": "The file does not exist" },
  storage_path_invalid: { "zh-CN": "存储路径无效", "en-US": "Invalid storage path" },
  storage_error: { "zh-CN": "存储服务出错", "en-US": "The storage service failed" },
  storage_access_denied: {
    "zh-CN": "存储服务拒绝访问",
    "en-US": "The storage service denied access",
  },
  storage_upload_not_found: {
    "zh-CN": "分片上传不存在或已结束",
    "en-US": "The multipart upload does not exist or has ended",
  },
  storage_multipart_invalid: {
    "zh-CN": "分片列表无效",
    "en-US": "Invalid list of upload parts",
  },
  storage_range_invalid: { "zh-CN": "请求的范围无效", "en-US": "Invalid byte range" },
  storage_size_mismatch: {
    "zh-CN": "上传的大小与声明的不一致",
    "en-US": "The uploaded size does not match the declared size",
  },
  storage_conflict: {
    "zh-CN": "路径与已有的文件或文件夹冲突",
    "en-US": "The path conflicts with an existing file or folder",
  },
  storage_signature_invalid: { "zh-CN": "链接签名无效", "en-US": "Invalid link signature" },
  storage_signature_expired: { "zh-CN": "链接已过期", "en-US": "The link has expired" },
  // Storage configs and file shares
  storage_config_not_found: { "zh-CN": "存储配置不存在", "en-US": "Storage config not found" },
  storage_config_forbidden: {
    "zh-CN": "没有使用此存储配置的权限",
    "en-US": "No permission for this storage config",
  },
  storage_config_in_use: {
    "zh-CN": "该存储配置仍被文件或挂载点使用，无法删除",
    "en-US": "This storage config is still used by files or mounts",
  },
  file_not_found: { "zh-CN": "文件不存在", "en-US": "File not found" },
  file_expired: {
    "zh-CN": "文件分享已过期或不可用",
    "en-US": "This file share has expired or is used up",
  },
  file_required: { "zh-CN": "请选择要上传的文件", "en-US": "Choose a file to upload" },
  file_too_large: {
    "zh-CN": "文件超过大小限制",
    "en-US": "The file exceeds the size limit",
  },
  storage_quota_exceeded: {
    "zh-CN":
      "存储空间不足（文件 {{file_size}} 字节，剩余 {{remaining}} 字节，总容量 {{total}} 字节）",
    "en-US":
      "Not enough storage space (file {{file_size}} bytes, {{remaining}} bytes left of {{total}})",
  },
  upload_not_found: { "zh-CN": "上传记录不存在或已过期", "en-US": "Upload not found or expired" },
  upload_incomplete: {
    "zh-CN": "上传不完整：应为 {{expected}} 字节，收到 {{received}} 字节",
    "en-US": "Incomplete upload: expected {{expected}} bytes, received {{received}}",
  },
  range_not_satisfiable: { "zh-CN": "请求的范围无效", "en-US": "Requested range not satisfiable" },
  presign_failed: { "zh-CN": "获取预签名URL失败", "en-US": "Failed to get a presigned URL" },
  upload_failed: { "zh-CN": "上传失败", "en-US": "Upload failed" },
  upload_network_error: {
    "zh-CN": "上传过程中发生网络错误",
    "en-US": "A network error occurred during the upload",
  },
  upload_cancelled: { "zh-CN": "上传被取消", "en-US": "The upload was cancelled" },
  etag_missing: { "zh-CN": "未获取到ETag", "en-US": "No ETag was returned" },
  parts_failed: { "zh-CN": "部分分片上传失败", "en-US": "Some parts failed to upload" },
  upload_aborted: { "zh-CN": "上传已中止", "en-US": "The upload was aborted" },
  multipart_init_failed: {
    "zh-CN": "初始化分片上传失败",
    "en-US": "Failed to start the multipart upload",
  },
  multipart_complete_failed: {
    "zh-CN": "完成分片上传失败",
    "en-US": "Failed to complete the multipart upload",
  },
  cross_copy_empty: {
    "zh-CN": "没有找到跨存储复制项目",
    "en-US": "No cross-storage copy items found",
  },
  operation_cancelled: { "zh-CN": "操作已取消", "en-US": "Operation cancelled" },
  preview_failed: { "zh-CN": "预览失败", "en-US": "Preview failed" },
  link_may_have_expired: {
    "zh-CN": "下载链接可能已过期，请刷新页面",
    "en-US": "The download link may have expired, please refresh",
  },
  url_invalid: { "zh-CN": "无效的URL", "en-US": "Invalid URL" },
  url_forbidden: {
    "zh-CN": "不允许访问该地址",
    "en-US": "This address may not be fetched",
  },
  url_unreachable: { "zh-CN": "无法获取该URL的内容", "en-US": "Could not fetch the URL" },
  // Mounts
  mount_not_found: { "zh-CN": "挂载点不存在", "en-US": "Mount not found" },
  mount_name_invalid: {
    "zh-CN": "挂载名称为必填项，长度 1-50 个字符",
    "en-US": "A mount name is required (1-50 characters)",
  },
  mount_path_invalid: {
    "zh-CN": "挂载路径必须以 / 开头，只能包含字母、数字、下划线、连字符、中文和斜杠",
    "en-US":
      "A mount path starts with / and holds only letters, digits, underscores, hyphens, Chinese characters and slashes",
  },
  mount_path_reserved: { "zh-CN": "该挂载路径为系统保留路径", "en-US": "This mount path is reserved" },
  mount_path_taken: {
    "zh-CN": "该挂载路径已被使用或与其他挂载点重叠",
    "en-US": "This mount path is taken or overlaps another mount",
  },
  mount_storage_mismatch: {
    "zh-CN": "存储类型与存储配置不匹配",
    "en-US": "The storage type does not match the storage config",
  },
  cache_ttl_invalid: {
    "zh-CN": "缓存时间必须是 0 到 86400 之间的整数",
    "en-US": "Cache TTL must be a whole number from 0 to 86400",
  },
} satisfies Record<string, Entry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Fills `{{name}}` placeholders from params. */
export function interpolate(text: string, params?: Record<string, unknown>): string {
  if (!params) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** The localised message for an error code. */
export function errorMessage(
  code: ErrorCode,
  lang: Language,
  params?: Record<string, unknown>,
): string {
  return interpolate(ERROR_CATALOGUE[code][lang], params);
}

/** The catalogue of one language as a flat object, for i18next's `errors` namespace. */
export function errorCatalogueFor(lang: Language): Record<ErrorCode, string> {
  const out = {} as Record<ErrorCode, string>;
  for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
    out[code as ErrorCode] = (entry as Entry)[lang];
  }
  return out;
}
