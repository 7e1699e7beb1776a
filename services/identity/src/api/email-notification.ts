/**
 * `POST @email-notification` (the original's contact form, site root): `{from, message, name?, subject?}` mailed to
 * the site's own from address (the mail control panel), the caller's `from` as Reply-To, so that the site's owner
 * is reached without publishing an address. Anyone may send, anonymous visitors too, within the quota per client
 * address (and per principal when logged in). Like the original, only on the site root: the mail names the site,
 * not a page. 204 once the mail server took the mail; 400 while the site has no from address; 429 past the quota;
 * 503 when the server cannot be reached or refuses.
 */
import { z } from 'zod';
import { endpoint, operation } from './declarations';
import { callerMailFields, mailCallerOf } from './mail-fields';

const emailNotificationBody = z.object(callerMailFields).strict();

export const emailNotification = endpoint({
  name: 'email-notification',
  service: 'identity',
  context: 'site-root',
  operations: {
    POST: operation({
      summary: 'Sends a message to the site’s owner (the site’s from address), the caller’s address as Reply-To',
      permission: { public: 'the contact form is for visitors, as the original; the quota bounds it' },
      body: emailNotificationBody,
      handle: async (call, { siteMail }) => {
        await siteMail.notifySite(call.publicUrl, call.body, mailCallerOf(call));
        return { status: 204 };
      },
    }),
  },
});
