/**
 * `POST @users/<id>/reset-password` (a sub-path of `@users`, users.ts): with an empty body, mails the user a reset
 * link (anyone may ask: the mail goes to the user's own address; 200 whether such a user exists or not, 429 past
 * the per-user or per-address limit); with `reset_token` and `new_password`, sets the
 * password the link was for; with `old_password` and `new_password`, the user changes its own password.
 */
import { forbidden, validationError, type EndpointCall } from '@cms/shared';
import { z } from 'zod';
import type { PasswordResets, ResetRequest } from '../domain/password-reset';
import { clientAddressOfCall } from './calls';
import { MAX_PASSWORD_LENGTH } from '../domain/passwords';

const newPassword = z.string().min(5, 'at least 5 characters').max(MAX_PASSWORD_LENGTH);

export const resetPasswordBody = z.union([
  z.object({ reset_token: z.string().min(1).max(200), new_password: newPassword }).strict(),
  z.object({ old_password: z.string().min(1).max(MAX_PASSWORD_LENGTH), new_password: newPassword }).strict(),
  z.object({}).strict(),
]);

function requestOf(body: unknown): ResetRequest {
  const parsed = resetPasswordBody.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error);
  const data = parsed.data;
  if ('reset_token' in data) return { kind: 'token', ...data };
  if ('old_password' in data) return { kind: 'old-password', ...data };
  return { kind: 'mail' };
}

export async function resetPassword(
  call: EndpointCall<unknown, Record<string, string>, unknown, unknown>,
  resets: PasswordResets,
): Promise<{ status: number }> {
  const id = call.params.id;
  const request = requestOf(call.body);
  switch (request.kind) {
    case 'mail':
      await resets.sendResetMail(id, call.publicUrl, call.requestId, clientAddressOfCall(call));
      break;
    case 'token':
      await resets.resetWithToken(id, request.reset_token, request.new_password);
      break;
    case 'old-password':
      if (call.principal?.id !== id) throw forbidden('Only the user itself changes its password with old_password');
      await resets.changeOwn(id, request.old_password, request.new_password);
      break;
  }
  return { status: 200 };
}
