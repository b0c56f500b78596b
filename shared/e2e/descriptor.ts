/**
 * What the server keeps beside an end-to-end encrypted share, with no dependencies (the
 * command-line client and the service worker import it; shared/schemas/e2e.ts validates it).
 */

/** The descriptor as the API shows it: format version, password mixed in, sealed file meta. */
export type E2EDescriptor = { version: number; has_password: boolean; meta?: string };

/** The name and type the server keeps for an encrypted file: the real ones are in `meta`. */
export const E2E_STORED_NAME = "encrypted.bin";
export const E2E_STORED_TYPE = "application/octet-stream";
