/**
 * Mail sent on a caller's behalf through the site's mail settings: `@email-send` (an administrator writes to any
 * address) and `@email-notification` (anyone writes to the site's own from address, the contact form). The
 * caller's address goes in Reply-To, never in From: the site sends, as the original does, so that the mail is not
 * refused as forged. Each mail is counted against the caller's quota first; a mail that is not sent is given back.
 */
import {
  AppError,
  badRequest,
  MailNotConfigured,
  readMailSettings,
  type MailMessage,
  type MailSender,
  type RegistryReader,
} from '@cms/shared';
import type { MailQuota } from './mail-quota';

const SITE_TITLE = 'cms.site_title';

/** What the caller wrote; the header fields were checked for line breaks and control characters at the edge. */
export interface CallerMail {
  /** The caller's address, for replies. */
  from: string;
  name?: string;
  subject?: string;
  message: string;
}

/** Who sends, as the quota counts it. */
export interface MailCaller {
  principalId: string | null;
  clientAddress: string | undefined;
  requestId: string;
}

export class SiteMail {
  constructor(
    private readonly mail: MailSender,
    private readonly registry: RegistryReader,
    private readonly quota: MailQuota,
  ) {}

  /** `@email-send`: to `to`, introduced as sent through this site (the original's wording). */
  async sendTo(to: string, mail: CallerMail, caller: MailCaller): Promise<void> {
    const title = await this.siteTitle(caller.requestId);
    const sender = mail.name || 'a portal user';
    await this.send(caller, {
      to,
      replyTo: mail.from,
      subject: mail.subject || `${mail.name || 'A portal user'} via ${title}`,
      text: `You are receiving this mail because ${sender} sent this message via the site ${title}:\n\n${mail.message}\n`,
    });
  }

  /** `@email-notification`: to the site's own from address, the contact form of the site at `siteUrl`. */
  async notifySite(siteUrl: string, mail: CallerMail, caller: MailCaller): Promise<void> {
    const settings = await readMailSettings(this.registry, caller.requestId);
    if (!settings.fromAddress) throw notConfigured();
    const title = await this.siteTitle(caller.requestId);
    const sender = mail.name ? `${mail.name} <${mail.from}>` : mail.from;
    await this.send(caller, {
      to: settings.fromAddress,
      replyTo: mail.from,
      subject: mail.subject || `${mail.name || mail.from} via ${title}`,
      text:
        `You are receiving this mail because ${sender} is sending feedback about the site you administer at ` +
        `${siteUrl}.\nThe message sent was:\n\n${mail.message}\n`,
    });
  }

  private async send(caller: MailCaller, message: MailMessage): Promise<void> {
    const ticket = await this.quota.take(caller.principalId, caller.clientAddress);
    try {
      await this.mail.send(message, caller.requestId);
    } catch (error) {
      await ticket.release();
      if (error instanceof MailNotConfigured) throw notConfigured();
      if (error instanceof AppError) throw error;
      // One message to one recipient: the server took it whole or not at all, so nothing went out.
      throw new AppError(
        'ServiceUnavailable',
        'The mail server could not be reached or refused the mail; nothing was sent, try again later',
      );
    }
  }

  private async siteTitle(requestId: string): Promise<string> {
    const values = await this.registry.get([SITE_TITLE], requestId);
    const title = values[SITE_TITLE];
    // A title is one line in the registry; folded all the same, as it goes into the subject.
    return typeof title === 'string' && title.trim() ? title.replace(/[\r\n]+/g, ' ').trim() : 'the site';
  }
}

function notConfigured(): AppError {
  return badRequest('This site sends no mail: an administrator has to set the e-mail from address first');
}
