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
  request_body_timeout: {
    "zh-CN": "请求体传输中断：{{seconds}} 秒内没有收到数据",
    "en-US": "The request body stopped arriving: no data for {{seconds}} seconds",
  },
  field_invalid: { "zh-CN": "此项的值无效", "en-US": "This value is not valid" },
  value_too_long: { "zh-CN": "请求中的某个值过长", "en-US": "A value in the request is too long" },
  name_too_long: {
    "zh-CN": "名称过长（每一级最多 255 字节）",
    "en-US": "Name too long (at most 255 bytes per path segment)",
  },
  url_malformed: {
    "zh-CN": "地址中含有无效的百分号编码",
    "en-US": "The address contains invalid percent-encoding",
  },
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
  // Idempotency-Key (README "Idempotent writes")
  idempotency_key_invalid: {
    "zh-CN": "Idempotency-Key 无效：需为 1-255 个可打印 ASCII 字符",
    "en-US": "Invalid Idempotency-Key: use 1-255 printable ASCII characters",
  },
  idempotency_key_reused: {
    "zh-CN": "该 Idempotency-Key 已用于另一个不同的请求",
    "en-US": "This Idempotency-Key was already used for a different request",
  },
  idempotency_in_progress: {
    "zh-CN": "使用该 Idempotency-Key 的请求仍在处理中，请稍后重试",
    "en-US": "A request with this Idempotency-Key is still in progress, retry shortly",
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
    "zh-CN": "没有需要修改的内容：请填写与当前不同的新用户名或新密码",
    "en-US":
      "Nothing to change: enter a username different from the current one, or a new password",
  },
  password_too_short: {
    "zh-CN": "密码至少需要 {{min}} 个字符",
    "en-US": "The password needs at least {{min}} characters",
  },
  password_too_long: {
    "zh-CN": "密码过长（最多 1000 个字符）",
    "en-US": "The password is too long (1000 characters at most)",
  },
  username_invalid: {
    "zh-CN": "用户名需为 1-{{max}} 个字符，只能包含字母、数字、下划线（_）、点（.）和连字符（-）",
    "en-US":
      "A username has 1-{{max}} characters: letters, digits, underscores (_), dots (.) and hyphens (-)",
  },
  verify_failed: { "zh-CN": "验证失败", "en-US": "Verification failed" },
  // API keys
  api_key_not_found: { "zh-CN": "API密钥不存在", "en-US": "API key not found" },
  api_key_exists: { "zh-CN": "该密钥已存在", "en-US": "This key already exists" },
  custom_key_too_short: {
    "zh-CN": "自定义密钥至少需要 32 个字符（字母、数字、下划线或连字符）",
    "en-US": "A custom key needs at least 32 characters (letters, digits, underscores or hyphens)",
  },
  api_key_name_exists: {
    "zh-CN": "密钥名称已存在",
    "en-US": "A key with this name already exists",
  },
  base_path_not_absolute: {
    "zh-CN": "基础路径必须以 / 开头",
    "en-US": "The base path must start with /",
  },
  base_path_dot_segment: {
    "zh-CN": "基础路径中不能包含 . 或 .. 段",
    "en-US": "The base path must not contain . or .. segments",
  },
  base_path_backslash: {
    "zh-CN": "基础路径中不能包含反斜杠（\\），请使用 /",
    "en-US": "The base path must not contain backslashes (\\); use /",
  },
  base_path_nul: {
    "zh-CN": "基础路径中不能包含空字符",
    "en-US": "The base path must not contain NUL characters",
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
  slug_recently_expired: {
    "zh-CN":
      "该链接后缀属于一个已过期的分享，将保留 {{days}} 天；请使用其他后缀，或由管理员清理过期分享后再用",
    "en-US":
      "This link suffix belonged to a share that expired; it stays reserved for {{days}} days. Use another suffix, or ask the admin to clear expired shares",
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
  // Client-side transport errors (docs/PRODUCT.md §8.3)
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
  // PWA and offline (docs/PRODUCT.md §8.5)
  sync_failed: { "zh-CN": "离线数据同步失败", "en-US": "Offline sync failed" },
  offline_queued: {
    "zh-CN": "当前离线：操作已保存，网络恢复后将自动同步",
    "en-US": "Offline: the change is saved and will sync when the connection returns",
  },
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
  storage_path_reserved: {
    "zh-CN": "该路径保留给分享文件，挂载点无法访问",
    "en-US": "This path is reserved for shared files and cannot be used through a mount",
  },
  storage_error: { "zh-CN": "存储服务出错", "en-US": "The storage service failed" },
  kv_unavailable: {
    "zh-CN": "数据库暂时无法访问，请稍后重试",
    "en-US": "The database cannot be reached right now; try again shortly",
  },
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
  storage_config_name_exists: {
    "zh-CN": "已有同名的存储配置，请换一个名称",
    "en-US": "A storage config with this name exists; choose another name",
  },
  storage_bucket_not_found: {
    "zh-CN": "存储桶“{{bucket}}”不存在：请先创建它，或在存储配置中改正存储桶名称",
    "en-US":
      'The bucket "{{bucket}}" does not exist: create it, or correct the bucket name in the storage config',
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
    "zh-CN": "文件超过大小限制（单次上传最大 {{limit}}）",
    "en-US": "The file exceeds the size limit ({{limit}} per upload)",
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
  upload_form_invalid: {
    "zh-CN": "上传表单格式错误或不完整（{{reason}}）",
    "en-US": "The upload form is malformed or incomplete ({{reason}})",
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
  // Settings (each failing key of a group update carries one of the setting_* codes)
  settings_invalid: { "zh-CN": "设置无效：{{keys}}", "en-US": "Invalid settings: {{keys}}" },
  settings_group_not_found: { "zh-CN": "设置分组不存在", "en-US": "No such settings group" },
  setting_not_found: { "zh-CN": "设置项不存在", "en-US": "No such setting" },
  setting_unknown: {
    "zh-CN": "该设置项不属于此分组",
    "en-US": "This setting does not belong to this group",
  },
  setting_read_only: { "zh-CN": "该设置项为只读", "en-US": "This setting is read-only" },
  setting_integer_invalid: {
    "zh-CN": "请输入 {{min}} 到 {{max}} 之间的整数",
    "en-US": "Enter a whole number from {{min}} to {{max}}",
  },
  setting_boolean_invalid: { "zh-CN": "必须是开或关", "en-US": "Must be on or off" },
  setting_option_invalid: {
    "zh-CN": "必须是以下之一：{{options}}",
    "en-US": "Must be one of: {{options}}",
  },
  setting_text_invalid: {
    "zh-CN": "必须是文本，且不含控制字符",
    "en-US": "Must be text without control characters",
  },
  setting_too_long: {
    "zh-CN": "最多 {{max}} 个字符（现有 {{length}} 个）",
    "en-US": "At most {{max}} characters (this has {{length}})",
  },
  setting_url_invalid: {
    "zh-CN": "只接受 http、https 或 data: 地址",
    "en-US": "Only http, https or data: URLs are accepted",
  },
  setting_link_invalid: {
    "zh-CN": "只接受 http 或 https 地址",
    "en-US": "Only http or https URLs are accepted",
  },
  setting_extension_invalid: {
    "zh-CN": "“{{entry}}” 不是有效的扩展名：只能包含字母、数字、下划线、加号和连字符",
    "en-US":
      '"{{entry}}" is not an extension: use only letters, digits, underscores, plus signs and hyphens',
  },
  setting_extension_too_long: {
    "zh-CN": "扩展名最多 {{max}} 个字符，“{{entry}}” 有 {{length}} 个",
    "en-US": 'An extension has at most {{max}} characters; "{{entry}}" has {{length}}',
  },
  // Mounts
  copy_into_itself: {
    "zh-CN": "不能把文件夹复制到它自身或其子目录中",
    "en-US": "Cannot copy a folder into itself or one of its subfolders",
  },
  too_many_items: { "zh-CN": "一次选择的项目过多", "en-US": "Too many items at once" },
  task_not_found: { "zh-CN": "任务不存在", "en-US": "Task not found" },
  task_not_retryable: {
    "zh-CN": "只有失败或已取消的任务可以重试",
    "en-US": "Only failed or cancelled tasks can be retried",
  },
  cross_mount_rename: {
    "zh-CN": "不能跨挂载点重命名，请使用复制",
    "en-US": "Cannot rename across mounts; copy instead",
  },
  rename_into_itself: {
    "zh-CN": "不能移动到自身或其子目录中",
    "en-US": "Cannot move a folder into itself",
  },
  target_exists: { "zh-CN": '目标 "{{path}}" 已存在', "en-US": 'Target "{{path}}" exists' },
  file_exists: {
    "zh-CN": "此处已有名为“{{name}}”的文件",
    "en-US": 'A file named "{{name}}" already exists here',
  },
  folder_exists: {
    "zh-CN": "此处已有名为“{{name}}”的文件夹",
    "en-US": 'A folder named "{{name}}" already exists here',
  },
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
  mount_path_reserved: {
    "zh-CN": "该挂载路径为系统保留路径",
    "en-US": "This mount path is reserved",
  },
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
  // Mount search
  search_too_short: {
    "zh-CN": "搜索关键词至少需要 {{min}} 个字符",
    "en-US": "Search terms need at least {{min}} characters",
  },
  search_rebuild_running: {
    "zh-CN": "该挂载点的搜索索引正在重建，请稍后再试",
    "en-US": "The search index of this mount is already being rebuilt, try again later",
  },
  web_proxy_disabled: {
    "zh-CN": "该挂载点未开启网页代理",
    "en-US": "Web proxy is off for this mount",
  },
  proxy_sign_required: {
    "zh-CN": "此代理链接需要签名",
    "en-US": "This proxy link needs a signature",
  },
  upload_etag_mismatch: {
    "zh-CN": "存储中的文件与上传的不一致，可能已被其他上传覆盖",
    "en-US": "The stored file differs from the upload; another upload may have replaced it",
  },
  // WebDAV
  webdav_xml_invalid: {
    "zh-CN": "请求体不是有效的 XML",
    "en-US": "The request body is not valid XML",
  },
  webdav_if_invalid: { "zh-CN": "If 请求头格式无效", "en-US": "Malformed If header" },
  webdav_locked: { "zh-CN": "资源已被锁定", "en-US": "The resource is locked" },
  webdav_precondition_failed: { "zh-CN": "前置条件不满足", "en-US": "Precondition failed" },
  webdav_depth_infinity: {
    "zh-CN": "不支持 Depth: infinity 的 PROPFIND，请使用 Depth: 0 或 1",
    "en-US": "PROPFIND with Depth: infinity is not supported; use Depth: 0 or 1",
  },
  webdav_depth_invalid: { "zh-CN": "Depth 请求头无效", "en-US": "Invalid Depth header" },
  webdav_parent_missing: {
    "zh-CN": "上级目录不存在",
    "en-US": "The parent folder does not exist",
  },
  webdav_exists: { "zh-CN": "该位置已存在资源", "en-US": "Something already exists here" },
  webdav_destination_invalid: {
    "zh-CN": "Destination 请求头无效",
    "en-US": "Missing or invalid Destination header",
  },
  webdav_same_resource: {
    "zh-CN": "源和目标不能相同，也不能是源的子目录",
    "en-US": "The destination is the source or lies inside it",
  },
  webdav_virtual_folder: {
    "zh-CN": "挂载点以上的目录是只读的，请在管理后台管理挂载点",
    "en-US": "The folders above mounts are read-only; manage mounts in the admin panel",
  },
  webdav_body_unsupported: {
    "zh-CN": "不支持的请求体",
    "en-US": "This request does not take a body of this type",
  },
  webdav_lock_token_invalid: {
    "zh-CN": "锁令牌无效或与请求的资源不符",
    "en-US": "The lock token is invalid or does not match the resource",
  },
  webdav_props_too_large: {
    "zh-CN": "属性总大小超出限制",
    "en-US": "The properties of this resource are too large",
  },
  // Backup and restore (docs/PRODUCT.md §8.5)
  backup_invalid_file: { "zh-CN": "无效的备份文件", "en-US": "Invalid backup file" },
  backup_parse_failed: {
    "zh-CN": "备份文件解析失败，不是有效的 JSON",
    "en-US": "Could not parse the backup file: it is not valid JSON",
  },
  backup_failed: { "zh-CN": "备份失败", "en-US": "Backup failed" },
  restore_failed: {
    "zh-CN": "恢复失败，数据已回滚到恢复前的状态",
    "en-US": "Restore failed; the data was rolled back to how it was before",
  },
  backup_checksum_mismatch: {
    "zh-CN": "备份文件校验失败，文件可能已被修改或损坏",
    "en-US": "Backup checksum mismatch: the file was changed or is damaged",
  },
  backup_unsupported_version: {
    "zh-CN": "不支持的备份版本：{{version}}",
    "en-US": "Unsupported backup version: {{version}}",
  },
  backup_no_modules: { "zh-CN": "请至少选择一个模块", "en-US": "Choose at least one module" },
  backup_file_required: { "zh-CN": "请选择备份文件", "en-US": "Choose a backup file" },
  backup_schedule_missing: {
    "zh-CN": "尚未设置定时备份",
    "en-US": "No backup schedule is set",
  },
  backup_schedule_time_invalid: {
    "zh-CN": "请按 HH:MM 填写时间（00:00-23:59）",
    "en-US": "Enter the time as HH:MM (00:00-23:59)",
  },
  backup_schedule_timezone_invalid: { "zh-CN": "未知的时区", "en-US": "Unknown time zone" },
  backup_keep_invalid: {
    "zh-CN": "保留份数须为 1-365 之间的整数",
    "en-US": "Keep a whole number of backups from 1 to 365",
  },
  backup_verify_failed: {
    "zh-CN": "备份已写入，但在临时数据库中试恢复失败：{{reason}}",
    "en-US":
      "The backup was written, but a test restore into a scratch database failed: {{reason}}",
  },
  backup_run_interrupted: {
    "zh-CN": "备份运行时服务器停止了，未能完成",
    "en-US": "The server stopped while the backup ran; it did not finish",
  },
  restore_in_progress: {
    "zh-CN": "另一个恢复操作正在进行，请稍后再试",
    "en-US": "Another restore is in progress, try again later",
  },
  // End-to-end encrypted shares (docs/E2E.md)
  e2e_version_unsupported: {
    "zh-CN": "不支持的端到端加密格式版本",
    "en-US": "Unsupported end-to-end encryption format version",
  },
  e2e_access_invalid: {
    "zh-CN": "端到端加密分享的密码必须是由密钥派生的访问令牌（43 个 base64url 字符）",
    "en-US":
      "An end-to-end encrypted share's password must be the access token derived from its key (43 base64url characters)",
  },
  e2e_content_invalid: {
    "zh-CN": "加密内容必须是 base64url 文本，且不超过大小限制（明文 10MB）",
    "en-US": "Encrypted content must be base64url text within the size limit (10MB of text)",
  },
  e2e_meta_invalid: {
    "zh-CN": "加密的文件信息格式无效",
    "en-US": "The encrypted file name and type are malformed",
  },
  e2e_not_editable: {
    "zh-CN": "端到端加密分享的内容和密码无法在服务器上修改",
    "en-US": "The content and password of an end-to-end encrypted share cannot be changed here",
  },
  e2e_server_preview_off: {
    "zh-CN": "端到端加密分享不提供服务器端预览（服务器无法读取内容）",
    "en-US":
      "Server-side previews are off for end-to-end encrypted shares (the server cannot read them)",
  },
} satisfies Record<string, Entry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Fills `{{name}}` placeholders from params. */
export function interpolate(text: string, params?: Record<string, unknown>): string {
  if (!params) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/**
 * The localised message for an error code. `params.message_code`, a code of this catalogue, gives
 * a more precise text while `code` stays what clients branch on (a slug taken by a swept share
 * is still `slug_taken`).
 */
export function errorMessage(
  code: ErrorCode,
  lang: Language,
  params?: Record<string, unknown>,
): string {
  const precise = params?.message_code;
  const text = typeof precise === "string" && precise in ERROR_CATALOGUE
    ? ERROR_CATALOGUE[precise as ErrorCode]
    : ERROR_CATALOGUE[code];
  return interpolate(text[lang], params);
}

/** The catalogue of one language as a flat object, for i18next's `errors` namespace. */
export function errorCatalogueFor(lang: Language): Record<ErrorCode, string> {
  const out = {} as Record<ErrorCode, string>;
  for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
    out[code as ErrorCode] = (entry as Entry)[lang];
  }
  return out;
}
