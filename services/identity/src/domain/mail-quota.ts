/**
 * How many mails `@email-send` and `@email-notification` may send: per principal and per client address, each in
 * a fixed window, counted in the identity store so that every identity replica counts the same. The reset-password
 * mails are counted by another instance (a collection of its own), per user asked for and per client address.
 */
import { createHash } from 'node:crypto';
import { AppError, DuplicateKeyError, type Collection, type Document, type DocumentStore } from '@cms/shared';
import { clientOf } from './throttle';

export interface MailQuotaSettings {
  /** Mails one logged-in principal may send per window (whatever its client address). */
  perPrincipal: number;
  /** Mails one client address (an IPv6 /64) may send per window, anonymous or not. */
  perClient: number;
  windowSeconds: number;
}

interface QuotaDoc extends Document {
  /** `principal:` or `client:` and a digest, so that a record has the same small size whatever was sent. */
  _id: string;
  /** Mails counted in the current window, sends in progress included. */
  sent: number;
  /** Milliseconds since the epoch. */
  window_start: number;
}

/** A place taken in the counts, given back when the mail could not be sent. */
export interface QuotaTicket {
  release(): Promise<void>;
}

const PURGE_INTERVAL_MS = 60_000;

/** Where a quota keeps its counts, and how its refusal names the first count (`account`: the principal's). */
export interface MailQuotaOptions {
  collection?: string;
  principalLabel?: string;
  now?: () => number;
}

export class MailQuota {
  private readonly counts: Collection<QuotaDoc>;
  private readonly principalLabel: string;
  private readonly now: () => number;
  private lastPurge = 0;

  constructor(
    store: DocumentStore,
    private readonly settings: MailQuotaSettings,
    options: MailQuotaOptions = {},
  ) {
    this.counts = store.collection<QuotaDoc>(options.collection ?? 'mail_quota');
    this.principalLabel = options.principalLabel ?? 'from this account';
    this.now = options.now ?? Date.now;
  }

  async ensureIndexes(): Promise<void> {
    await this.counts.createIndex({ window_start: 1 });
  }

  /**
   * Takes one mail from the principal's allowance (when logged in) and from the client's (an unknown address is
   * counted as one client: the gateway always tells it, so only a direct caller lacks one). Throws
   * TooManyRequests, with Retry-After, when either is used up; then neither count changes.
   */
  async take(principalId: string | null, clientAddress: string | undefined): Promise<QuotaTicket> {
    await this.purge();
    const taken: string[] = [];
    const release = async () => {
      for (const key of taken) await this.counts.updateOne({ _id: key }, { $inc: { sent: -1 } });
    };
    try {
      if (principalId !== null) {
        taken.push(
          await this.reserve('principal:' + digest(principalId), this.settings.perPrincipal, this.principalLabel),
        );
      }
      const client = clientAddress ? clientOf(clientAddress) : 'unknown';
      taken.push(await this.reserve('client:' + digest(client), this.settings.perClient, 'from this address'));
    } catch (error) {
      await release();
      throw error;
    }
    return { release };
  }

  /** One place under `key`; its window is started anew once over. */
  private async reserve(key: string, limit: number, whose: string): Promise<string> {
    const windowMs = this.settings.windowSeconds * 1000;
    for (let tries = 0; ; tries++) {
      const now = this.now();
      const current = await this.counts.findOneAndUpdate(
        { _id: key, window_start: { $gt: now - windowMs } },
        { $inc: { sent: 1 } },
        { returnDocument: 'after' },
      );
      if (current) {
        if (current.sent <= limit) return key;
        await this.counts.updateOne({ _id: key }, { $inc: { sent: -1 } });
        const seconds = Math.max(1, Math.ceil((current.window_start + windowMs - now) / 1000));
        throw new AppError(
          'TooManyRequests',
          `At most ${limit} mails per ${this.settings.windowSeconds} seconds ${whose}; try again in ${seconds} s`,
          undefined,
          undefined,
          { 'Retry-After': String(seconds) },
        );
      }
      // No count, or one whose window is over: start a window (conditional, so a count begun meanwhile stays).
      await this.counts.deleteOne({ _id: key, window_start: { $lte: now - windowMs } });
      try {
        await this.counts.insertOne({ _id: key, sent: 1, window_start: now });
        return key;
      } catch (error) {
        // Another send started the window first: count in it.
        if (!(error instanceof DuplicateKeyError) || tries > 2) throw error;
      }
    }
  }

  /** Forgets windows long over (at most once a minute), so the collection holds only the recent senders. */
  private async purge(): Promise<void> {
    const now = this.now();
    if (now - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now;
    await this.counts.deleteMany({ window_start: { $lt: now - this.settings.windowSeconds * 1000 } });
  }
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}
