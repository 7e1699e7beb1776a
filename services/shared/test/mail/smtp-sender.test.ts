/** The SMTP `MailSender`: settings read from the mail panel's records at each send, against a local SMTP server. */
import { MailNotConfigured, MAIL_RECORDS } from '@cms/shared';
import { smtpMailSender } from '@cms/shared/adapters';
import { startMailCatcher, type MailCatcher } from '../../../../test/support/mail-catcher';

/** A registry reader over a plain object, as `RegistrySettings.get` answers. */
const registry = (values: Record<string, unknown>) => ({
  get: (names: readonly string[]) => Promise.resolve(Object.fromEntries(names.map((name) => [name, values[name]]))),
});

describe('smtpMailSender', () => {
  let catcher: MailCatcher;
  beforeAll(async () => {
    catcher = await startMailCatcher({ user: 'mailer', password: 'secret' });
  });
  afterAll(() => catcher.close());

  it('sends through the configured server, from the site address, with ESMTP authentication', async () => {
    const values: Record<string, unknown> = {
      [MAIL_RECORDS.host]: '127.0.0.1',
      [MAIL_RECORDS.port]: catcher.port,
      [MAIL_RECORDS.user]: 'mailer',
      [MAIL_RECORDS.password]: 'secret',
      [MAIL_RECORDS.fromAddress]: 'site@example.org',
      [MAIL_RECORDS.fromName]: 'The Site',
    };
    const mail = smtpMailSender(registry(values), { timeoutMs: 5000 });
    try {
      await mail.send({ to: ['a@example.org', 'b@example.org'], subject: 'Hello\r\nBcc: x@evil', text: 'Body' }, 'r1');
      const caught = catcher.received.at(-1)!;
      expect(caught.to).toEqual(['a@example.org', 'b@example.org']);
      expect(caught.from).toBe('site@example.org');
      expect(caught.user).toBe('mailer');
      // The line break is folded: no header is injected.
      expect(caught.subject).toBe('Hello Bcc: x@evil');
      expect(caught.raw).not.toMatch(/^Bcc:/im);
      expect(caught.raw).toMatch(/^From: The Site <site@example.org>/im);
      expect(caught.text.trim()).toBe('Body');

      // A wrong password (changed in the registry) is refused by the server: the send rejects.
      values[MAIL_RECORDS.password] = 'wrong';
      await expect(mail.send({ to: 'a@example.org', subject: 'x', text: 'y' }, 'r2')).rejects.toThrow();
    } finally {
      mail.close();
    }
  });

  it('refuses to send without a from address', async () => {
    const mail = smtpMailSender(registry({ [MAIL_RECORDS.host]: '127.0.0.1', [MAIL_RECORDS.port]: catcher.port }));
    await expect(mail.send({ to: 'a@example.org', subject: 'x', text: 'y' }, 'r3')).rejects.toBeInstanceOf(
      MailNotConfigured,
    );
    mail.close();
  });
});
