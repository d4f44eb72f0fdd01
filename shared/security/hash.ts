import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The hashing rules both servers keep for secrets (OAuth ids, codes and tokens; admin sessions; agent tokens;
 * passwords). Node's `crypto`, synchronous: these run on every `/mcp` call and every form post.
 */

/** SHA-256 of a text, hex: the only form in which ids, codes, tokens and sessions are stored. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * Whether a presented secret equals the expected one, in time that depends on neither: both are hashed first, so the
 * comparison is over equal lengths and says nothing about how much of the secret matched.
 */
export function sameSecret(expected: string, presented: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(expected), digest(presented));
}

/** 256 random bits, base64url (43 characters): tokens, codes, session ids, CSRF tokens. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}
