import { AppError, unauthorized, BASIC_CHALLENGE, type Principal__Output } from '@cms/shared';
import type { Backends } from './backends';

/**
 * Establishes the caller from the Authorization header: none is anonymous
 * (null); Basic and Bearer are verified by the identity service; anything
 * else is 401.
 */
export async function authenticate(
  header: string | undefined,
  backends: Backends,
  requestId: string,
): Promise<Principal__Output | null> {
  if (!header) return null;
  const space = header.indexOf(' ');
  const scheme = (space === -1 ? header : header.slice(0, space)).toLowerCase();
  const value = space === -1 ? '' : header.slice(space + 1).trim();
  if (scheme === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) throw unauthorized('Malformed Basic credentials', BASIC_CHALLENGE);
    return withChallenge(
      backends.authenticate(
        { basic: { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) } },
        requestId,
      ),
    );
  }
  if (scheme === 'bearer' && value) return withChallenge(backends.authenticate({ bearer_token: value }, requestId));
  throw unauthorized(`Unsupported authorization scheme "${scheme}"`, BASIC_CHALLENGE);
}

/** A refused login says how to authenticate. */
function withChallenge(attempt: Promise<Principal__Output>): Promise<Principal__Output> {
  return attempt.catch((error: unknown) => {
    if (error instanceof AppError && error.type === 'Unauthorized' && !error.headers) {
      throw new AppError(error.type, error.message, error.errors, error.extra, BASIC_CHALLENGE);
    }
    throw error;
  });
}
