/**
 * The rules of the admin account's username and password, shared by the server (first start and
 * the account change) and the client's form, so both refuse the same values with the same text.
 *
 * Password: at least 12 characters. A length floor is the rule NIST SP 800-63B recommends over
 * composition rules (which push people to `Password1!`); 12 characters of even lowercase letters
 * carry about 56 bits, which the slowed login and the 600k-iteration PBKDF2 make impractical to
 * guess online or offline. The generated first-start password (16 random base64url characters)
 * is longer already.
 *
 * Username: 1-50 ASCII letters, digits, `_`, `.` or `-`. It is typed into WebDAV clients' Basic
 * auth, where non-ASCII names are encoded differently from client to client, and it is shown in
 * the page, so spaces, slashes and angle brackets have no place in it.
 */

/** The shortest admin password. */
export const ADMIN_PASSWORD_MIN_LENGTH = 12;
/** The longest admin password (bounds the KDF's input). */
export const ADMIN_PASSWORD_MAX_LENGTH = 1000;
/** The longest admin username. */
export const USERNAME_MAX_LENGTH = 50;

const USERNAME_PATTERN = /^[A-Za-z0-9_.-]+$/;

/** The parameters of the rules' error texts (`{{min}}`, `{{max}}`). */
export const ACCOUNT_RULE_PARAMS = {
  min: ADMIN_PASSWORD_MIN_LENGTH,
  max: USERNAME_MAX_LENGTH,
} as const;

/** The error code of a username that breaks the rule, or null when it is fine. */
export function usernameProblem(name: string): "username_invalid" | null {
  return name.length >= 1 && name.length <= USERNAME_MAX_LENGTH && USERNAME_PATTERN.test(name)
    ? null
    : "username_invalid";
}

/** The error code of a password that breaks the rule, or null when it is fine. */
export function passwordProblem(
  password: string,
): "password_too_short" | "password_too_long" | null {
  // Counted in code points, so an emoji is one character, as a person counts it.
  const length = [...password].length;
  if (length < ADMIN_PASSWORD_MIN_LENGTH) return "password_too_short";
  if (password.length > ADMIN_PASSWORD_MAX_LENGTH) return "password_too_long";
  return null;
}
