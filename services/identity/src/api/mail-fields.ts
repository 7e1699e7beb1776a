/**
 * The fields of `@email-send` and `@email-notification`, checked before anything is counted or sent. Every field
 * that ends up in a mail header (addresses, name, subject) is one line without control characters: a line break
 * there would let the caller add headers (Bcc) to the site's mail, so it is refused (400), not folded.
 */
import type { EndpointCall } from '@cms/shared';
import { z } from 'zod';
import type { MailCaller } from '../domain/site-mail';
import { clientAddressOfCall } from './calls';

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators: matching them is the point.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// The body may have line breaks and tabs, not the other controls (a NUL ends the message on some servers).
// eslint-disable-next-line no-control-regex
const BODY_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const headerField = (max: number) =>
  z
    .string()
    .max(max, `at most ${max} characters`)
    .refine((value) => !CONTROL.test(value), 'must be one line, without control characters');

/** One address (RFC 5321 bounds it at 254 characters); zod's pattern admits no spaces, quotes or brackets. */
export const address = headerField(254).pipe(z.string().email('must be an e-mail address'));

export const MAX_MESSAGE_LENGTH = 10_000;

export const callerMailFields = {
  from: address,
  name: headerField(100).optional(),
  subject: headerField(200).optional(),
  message: z
    .string()
    .min(1, 'required')
    .max(MAX_MESSAGE_LENGTH, `at most ${MAX_MESSAGE_LENGTH} characters`)
    .refine(
      (value) => !BODY_CONTROL.test(value),
      'must not contain control characters other than line breaks and tabs',
    ),
};

/** Who sends, for the quota: the principal if logged in, and the client address the gateway saw. */
export function mailCallerOf(call: EndpointCall<unknown, unknown, unknown, unknown>): MailCaller {
  return {
    principalId: call.principal?.id ?? null,
    clientAddress: clientAddressOfCall(call),
    requestId: call.requestId,
  };
}
