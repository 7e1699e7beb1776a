/**
 * Sending e-mail, as a port: a `MailSender` takes a message (recipients, subject, plain text) and resolves once the
 * SMTP server accepted it. Callers never see SMTP settings: the adapter reads them from the mail control panel's
 * registry records (`mail-settings.ts`) at each send, so a change in `@controlpanels/mail` applies to the next mail.
 *
 *   import { smtpMailSender } from '@cms/shared/adapters';      // the adapter (nodemailer), for service processes
 *   import { MailNotConfigured, type MailSender } from '@cms/shared';
 *
 *   const mail: MailSender = smtpMailSender(registrySettings);  // a RegistrySettings, or any `{ get(names, id) }`
 *   await mail.send({ to: 'editor@example.org', subject: 'Hello', text: '...' }, requestId);
 */

export interface MailMessage {
  /** One address or several; the sender checks nothing beyond what the SMTP server refuses. */
  to: string | readonly string[];
  /** A single line; line breaks are folded by the adapter so that no header can be injected. */
  subject: string;
  /** The plain-text body. */
  text: string;
  /** Where replies go, when not to the site's from address. */
  replyTo?: string;
}

export interface MailSender {
  /**
   * Sends `message` through the site's mail settings. Rejects with `MailNotConfigured` when the site has no from
   * address (nothing can be sent until an administrator sets one: retrying will not help), and with the transport's
   * error when the SMTP server cannot be reached or refuses the message (a retry may help).
   */
  send(message: MailMessage, requestId: string): Promise<void>;
  /** Rejects with `MailNotConfigured` as `send` would, without sending anything. */
  checkConfigured(requestId: string): Promise<void>;
  /** Closes pooled connections, if any. */
  close(): void;
}

/** The site has no `email_from_address`: mail is switched off until an administrator sets one. */
export class MailNotConfigured extends Error {
  constructor() {
    super('the site has no e-mail from address (the mail control panel)');
    this.name = 'MailNotConfigured';
  }
}

/** A sender that keeps what it is given (for tests, and for running without mail). */
export class MemoryMailSender implements MailSender {
  readonly sent: MailMessage[] = [];

  send(message: MailMessage): Promise<void> {
    this.sent.push(message);
    return Promise.resolve();
  }

  checkConfigured(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {}
}
