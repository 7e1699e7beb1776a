/** The Mail action of content rules, over the shared mail port (the site's SMTP settings, from the mail panel). */
import { MailNotConfigured, badRequest, type MailSender } from '@cms/shared';
import type { Trigger } from './rule-matching';
import type { RuleMailer } from './rule-runner';
import { eventTitle } from './rules';

/** The substitutions a message and a subject may use, as a few of the reference's. */
function substitute(text: string, trigger: Trigger): string {
  const values: Record<string, string> = {
    path: trigger.path,
    id: trigger.objectId,
    type: trigger.portalType ?? '',
    review_state: trigger.reviewState ?? '',
    event: eventTitle(trigger.event),
    user: trigger.actor ?? '',
  };
  return text.replace(/\$\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** A user's e-mail address, or null (identity, for `exclude_actor`). */
export type AddressOf = (userId: string, requestId: string) => Promise<string | null>;

export function ruleMailer(sender: MailSender, addressOf: AddressOf): RuleMailer {
  return {
    async send(values, trigger, requestId) {
      let to = String(values.recipients ?? '')
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean);
      if (to.length === 0) throw badRequest('The Mail action has no recipients');
      // `exclude_actor`: the one who caused the event is not told of it.
      if (values.exclude_actor === true && trigger.actor) {
        const actorAddress = (await addressOf(trigger.actor, requestId))?.toLowerCase();
        if (actorAddress) to = to.filter((recipient) => recipient.toLowerCase() !== actorAddress);
        if (to.length === 0) return;
      }
      try {
        await sender.send(
          {
            to,
            subject: substitute(String(values.subject ?? ''), trigger),
            text: substitute(String(values.message ?? ''), trigger),
            ...(typeof values.source === 'string' && values.source ? { replyTo: values.source } : {}),
          },
          requestId,
        );
      } catch (error) {
        // Retrying does not help until an administrator sets a from address: the rule's execution ends.
        if (error instanceof MailNotConfigured) throw badRequest(error.message);
        throw error;
      }
    },
  };
}
