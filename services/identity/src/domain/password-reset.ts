/**
 * `@users/<id>/reset-password`: a user who forgot the password asks for a reset mail; its link carries a one-time
 * token with which a new password is set without the old one. A user who knows the old password changes it here
 * too. Tokens are stored as digests, so a copy of the store cannot reset anyone's password.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AppError, badRequest, MailNotConfigured, notFound, type Document, type MailSender } from '@cms/shared';
import { hashPassword, verifyPassword } from './passwords';
import { newTokenGeneration, type UserDoc } from './user';
import type { UserStore } from './users-repository';
import type { WritePath } from './write-path';

/** How long a reset link works. */
export const RESET_TOKEN_TTL_MS = 24 * 3600 * 1000;

export interface ResetTokenRecord extends Document {
  /** The token's SHA-256 digest (hex). */
  _id: string;
  user_id: string;
  expires: string;
}

/** Where pending reset tokens are kept; implemented in store/. */
export interface ResetTokenStore {
  save(record: ResetTokenRecord): Promise<void>;
  /** Removes the user's token with this digest and answers it, or null when there is none; a token works once. */
  take(digest: string, userId: string): Promise<ResetTokenRecord | null>;
  /** Removes the tokens that expired before `now`. */
  purge(now: string): Promise<void>;
}

export type ResetRequest =
  | { kind: 'mail' }
  | { kind: 'token'; reset_token: string; new_password: string }
  | { kind: 'old-password'; old_password: string; new_password: string };

const digestOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export class PasswordResets {
  constructor(
    private readonly users: UserStore,
    private readonly tokens: ResetTokenStore,
    private readonly writes: WritePath<UserDoc>,
    private readonly mail: MailSender,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Mails the user a link to `<publicUrl>/passwordreset/<token>` (the front end's reset form). */
  async sendResetMail(id: string, publicUrl: string, requestId: string): Promise<void> {
    const user = await this.users.byId(id);
    if (!user) throw notFound(`No such user: ${id}`);
    if (!user.email) throw badRequest('This user has no e-mail address to send a reset link to');
    const token = randomBytes(16).toString('hex');
    const now = this.now();
    await this.tokens.purge(now.toISOString());
    await this.tokens.save({
      _id: digestOf(token),
      user_id: id,
      expires: new Date(now.getTime() + RESET_TOKEN_TTL_MS).toISOString(),
    });
    const link = `${publicUrl}/passwordreset/${token}?userid=${encodeURIComponent(id)}`;
    try {
      await this.mail.send(
        {
          to: user.email,
          subject: 'Password reset request',
          text:
            `Someone asked to reset the password of the account "${id}".\n\n` +
            `To set a new password, open this link within 24 hours:\n\n${link}\n\n` +
            `If you did not ask for this, ignore this mail: your password stays as it is.\n`,
        },
        requestId,
      );
    } catch (error) {
      await this.tokens.take(digestOf(token), id);
      if (error instanceof MailNotConfigured) {
        throw badRequest('This site sends no mail: an administrator has to set the e-mail from address first');
      }
      throw new AppError('ServiceUnavailable', 'The reset mail could not be sent; try again later');
    }
  }

  /** Sets a new password with the token of a reset mail (no login needed: the token is the proof). */
  async resetWithToken(id: string, token: string, newPassword: string): Promise<void> {
    const record = await this.tokens.take(digestOf(token), id);
    if (!record || record.expires <= this.now().toISOString()) {
      throw badRequest('The reset token is invalid or expired; ask for a new reset mail', [
        { field: 'reset_token', message: 'invalid or expired' },
      ]);
    }
    await this.setPassword(id, newPassword);
  }

  /** The user changes its own password, giving the old one. */
  async changeOwn(id: string, oldPassword: string, newPassword: string): Promise<void> {
    const hash = await hashPassword(newPassword);
    await this.writes.change(id, async (user) => {
      if (!(await verifyPassword(oldPassword, user.password_hash))) {
        throw badRequest('The old password is wrong', [{ field: 'old_password', message: 'wrong password' }]);
      }
      return { set: passwordChange(hash), announce: { user: id } };
    });
  }

  private async setPassword(id: string, newPassword: string): Promise<void> {
    const hash = await hashPassword(newPassword);
    await this.writes.change(id, () => ({ set: passwordChange(hash), announce: { user: id } }));
  }
}

/** A new password ends the sessions opened with the old one. */
function passwordChange(hash: string): Partial<UserDoc> {
  return { password_hash: hash, token_generation: newTokenGeneration() };
}
