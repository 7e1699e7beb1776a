/**
 * `POST @email-send` (the original's, site root): a mail from the site to any one address, `{to, from, message,
 * name?, subject?}`, the caller's `from` as Reply-To. Only those with `Use mailhost services` (the site's
 * administrators, as in the original) may: anyone else would turn the site into a relay. 204 once the mail
 * server took the mail; 400 while the site has no from address; 429 past the quota; 503 when the server cannot be
 * reached or refuses.
 */
import { z } from 'zod';
import { endpoint, operation } from './declarations';
import { address, callerMailFields, mailCallerOf } from './mail-fields';

const emailSendBody = z.object({ to: address, ...callerMailFields }).strict();

export const emailSend = endpoint({
  name: 'email-send',
  service: 'identity',
  context: 'site-root',
  operations: {
    POST: operation({
      summary: 'Sends a mail from the site to one address, the caller’s address as Reply-To',
      permission: 'Use mailhost services',
      body: emailSendBody,
      handle: async (call, { siteMail }) => {
        const { to, ...mail } = call.body;
        await siteMail.sendTo(to, mail, mailCallerOf(call));
        return { status: 204 };
      },
    }),
  },
});
