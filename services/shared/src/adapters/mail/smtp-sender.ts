/** The `MailSender` adapter over SMTP (nodemailer), configured from the mail control panel at each send. */
import { createTransport, type Transporter } from 'nodemailer';
import { MailNotConfigured, type MailMessage, type MailSender } from '../../mail/mail-sender';
import { readMailSettings, type MailSettings, type RegistryReader } from '../../mail/mail-settings';

export interface SmtpMailSenderOptions {
  /** Bound on connecting and on each SMTP exchange, so that a dead server fails a send instead of hanging it. */
  timeoutMs?: number;
}

/** One line, bounded: a subject never carries a line break into the headers. */
const oneLine = (value: string, max: number) => value.replace(/[\r\n]+/g, ' ').slice(0, max);

export function smtpMailSender(registry: RegistryReader, options: SmtpMailSenderOptions = {}): MailSender {
  const timeoutMs = options.timeoutMs ?? 10_000;
  // One transport per distinct settings, rebuilt when an administrator changes them.
  let cached: { key: string; transport: Transporter } | undefined;

  const transportFor = (settings: MailSettings): Transporter => {
    const key = JSON.stringify([settings.host, settings.port, settings.user, settings.password]);
    if (cached?.key === key) return cached.transport;
    cached?.transport.close();
    const transport = createTransport({
      host: settings.host,
      port: settings.port,
      // Port 465 speaks TLS from the start; the others upgrade with STARTTLS when the server offers it.
      secure: settings.port === 465,
      auth: settings.user ? { user: settings.user, pass: settings.password ?? '' } : undefined,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
    cached = { key, transport };
    return transport;
  };

  return {
    async send(message: MailMessage, requestId: string) {
      const settings = await readMailSettings(registry, requestId);
      if (!settings.fromAddress) throw new MailNotConfigured();
      await transportFor(settings).sendMail({
        from: settings.fromName ? { name: settings.fromName, address: settings.fromAddress } : settings.fromAddress,
        to: typeof message.to === 'string' ? message.to : [...message.to],
        subject: oneLine(message.subject, 500),
        text: message.text,
        replyTo: message.replyTo,
        headers: { 'X-Request-Id': oneLine(requestId, 100) },
      });
    },
    async checkConfigured(requestId: string) {
      if (!(await readMailSettings(registry, requestId)).fromAddress) throw new MailNotConfigured();
    },
    close() {
      cached?.transport.close();
      cached = undefined;
    },
  };
}
