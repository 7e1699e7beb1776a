import { AppError, unauthorized, BASIC_CHALLENGE, type Principal__Output } from '@cms/shared';
import { tokenHints, type AuthCache } from './auth-cache';
import type { Backends } from './backends';

/** RFC 6750: a refused token asks for a token, not for a password (no browser login dialog). */
const BEARER_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="CMS", error="invalid_token"' };

/**
 * Establishes the caller from the Authorization header: none is anonymous
 * (null); Basic and Bearer are verified by the identity service (or found in
 * the cache of verified headers); anything else is 401. Identity is told the
 * client's address: Basic is a password guess like `@login`, throttled alike.
 */
export async function authenticate(
  header: string | undefined,
  backends: Backends,
  requestId: string,
  cache?: AuthCache,
  clientAddress?: string,
): Promise<Principal__Output | null> {
  if (!header) return null;
  const memory = cache?.active ? cache : undefined;
  const key = memory?.keyOf(header) ?? '';
  const cached = memory?.get(key);
  if (cached) return cached;
  const ticket = memory?.ticket() ?? 0;
  const space = header.indexOf(' ');
  const scheme = (space === -1 ? header : header.slice(0, space)).toLowerCase();
  const value = space === -1 ? '' : header.slice(space + 1).trim();
  if (scheme === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) throw unauthorized('Malformed Basic credentials', BASIC_CHALLENGE);
    const principal = await withChallenge(
      backends.authenticate(
        { basic: { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) } },
        requestId,
        clientAddress,
      ),
      BASIC_CHALLENGE,
    );
    memory?.set(key, ticket, principal);
    return principal;
  }
  if (scheme === 'bearer' && value) {
    const principal = await withChallenge(
      backends.authenticate({ bearer_token: value }, requestId, clientAddress),
      BEARER_CHALLENGE,
    );
    memory?.set(key, ticket, principal, tokenHints(value));
    return principal;
  }
  throw unauthorized(`Unsupported authorization scheme "${scheme}"`, BASIC_CHALLENGE);
}

/** A refused login says how to authenticate. */
function withChallenge(
  attempt: Promise<Principal__Output>,
  challenge: Record<string, string>,
): Promise<Principal__Output> {
  return attempt.catch((error: unknown) => {
    if (error instanceof AppError && error.type === 'Unauthorized' && !error.headers) {
      throw new AppError(error.type, error.message, error.errors, error.extra, challenge);
    }
    throw error;
  });
}
