/**
 * What both parts of `@comments` (comments.ts, comment-workflow.ts) read before they act: the discussion settings
 * and what the caller may do on the object (404 where it does not allow discussion), the body bound of their
 * guard, and the body a `POST` to `@comments` takes.
 */
import { AppError } from '@cms/shared';
import { z } from 'zod';
import type { DiscussionContext } from '../clients/contexts';
import { bodyLimit, capabilitiesOf, discussionAllowed, requireDiscussion, type Capabilities } from '../domain/comment';
import type { DiscussionSettings } from '../domain/settings';
import { settingsOf, type DiscussionDeps } from './declarations';

/** Generous bounds against hostile input; the registry's length limit is checked on the text itself. */
export const postBody = z
  .object({
    text: z.string().max(1_000_000).optional(),
    author_name: z.string().max(200).optional(),
    author_email: z.string().email().max(254).optional(),
    user_notification: z.boolean().optional(),
    // A workflow transition's note (the `@workflow` sub-path), not kept.
    comment: z.string().max(10_000).optional(),
  })
  .strict();

type ConversationCall = {
  request: Parameters<typeof settingsOf>[0]['request'];
  requestId: string;
  context: DiscussionContext;
};

export interface Conversation {
  settings: DiscussionSettings;
  caller: Capabilities;
}

/** The settings and what the caller may do here; 404 where the object does not allow discussion. */
export async function conversation(call: ConversationCall, deps: DiscussionDeps): Promise<Conversation> {
  const settings = await settingsOf(call, deps);
  const allowed = discussionAllowed(settings, call.context);
  requireDiscussion(allowed);
  return { settings, caller: capabilitiesOf(call.request.principal, call.context.scope, settings, allowed) };
}

/** A body longer than any allowed comment is refused before it is parsed. */
export async function boundBody(call: ConversationCall, deps: DiscussionDeps): Promise<void> {
  const { settings } = await conversation(call, deps);
  const limit = bodyLimit(settings);
  if (call.request.body.length > limit) {
    throw new AppError('PayloadTooLarge', `A comment body may not exceed ${limit} bytes`);
  }
}
