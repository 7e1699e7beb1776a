/**
 * `@users/<id>/reset-password`: a user who forgot the password asks for a reset mail; its link carries a one-time
 * token with which a new password is set without the old one. A user who knows the old password changes it here
 * too. Tokens are stored as digests, so a copy of the store cannot reset anyone's password.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AppError, badRequest, MailNotConfigured, type Document, type Logger, type MailSender } from '@cms/shared';
import type { MailQuota } from './mail-quota';
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
  /** Removes every token of the user (one was used: the others die with it). */
  dropAll(userId: string): Promise<void>;
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
    private readonly quota: MailQuota,
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Mails the user a link to `<publicUrl>/passwordreset/<token>` (the front end's reset form). The answer is the
   * same whether the user exists and has an address or not (else the form would tell who has an account); the
   * asks are counted per user and per asking address all the same (429 above either).
   */
  async sendResetMail(id: string, publicUrl: string, requestId: string, clientAddress?: string): Promise<void> {
    const ticket = await this.quota.take(id, clientAddress);
    const user = await this.users.byId(id);
    if (!user?.email) {
      // As for a user with an address: 400 when the site sends no mail, else the same 200.
      try {
        await this.mail.checkConfigured(requestId);
      } catch (error) {
        await ticket.release();
        throw error instanceof MailNotConfigured ? noMail() : error;
      }
      this.log.info({ requestId }, 'reset mail asked for a user that does not exist or has no address; none sent');
      return;
    }
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
      await ticket.release();
      if (error instanceof MailNotConfigured) throw noMail();
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
    // The links of earlier (or later) reset mails die with the one used: each could reset the new password.
    await this.tokens.dropAll(id);
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

function noMail(): AppError {
  return badRequest('This site sends no mail: an administrator has to set the e-mail from address first');
}

/** A new password ends the sessions opened with the old one. */
function passwordChange(hash: string): Partial<UserDoc> {
  return { password_hash: hash, token_generation: newTokenGeneration() };
}
