/**
 * `@comments`: the conversation on a content object (specification: Comments; addendum §3, §8). `GET` lists it in
 * thread order, batched; `POST` adds a comment (or, with a comment id, a direct reply); `PATCH` edits one (its
 * author); `DELETE` removes one and its replies (its author or a moderator). Moderators approve or reject a
 * pending comment with `POST @comments/<id>/@workflow/publish` (or `reject`), the part of `@comments` in
 * comment-workflow.ts. Where the object does not allow discussion, every method answers 404.
 */
import { badRequest, readBatch, type Permission } from '@cms/shared';
import { z } from 'zod';
import type { DiscussionContext } from '../clients/contexts';
import { threadOrder } from '../domain/comment';
import { boundBody, conversation, postBody } from './conversation';
import { endpoint, operation, settingsOf, type DiscussionDeps } from './declarations';
import { commentsUrl, renderComment, renderList } from './render';

const editBody = z.object({ text: z.string().max(1_000_000) }).strict();

const commentParams = z.object({ comment_id: z.string().max(40) });
const postParams = z.object({ comment_id: z.string().max(40).optional() });

const POST_ACCESS =
  'a comment or reply needs "Reply to item", or anonymous comments switched on for an anonymous caller; after ' +
  'the 404 of the guard';

/** The permission a `POST` needs, by who sends it (evaluated after the guard, so a closed discussion is 404). */
async function postPermission(
  call: { principal: unknown; request: Parameters<typeof settingsOf>[0]['request']; requestId: string },
  deps: DiscussionDeps,
): Promise<Permission> {
  if (!call.principal && (await settingsOf(call, deps)).anonymousComments) return 'View';
  return 'Reply to item';
}

function location(call: { publicUrl: string; context: DiscussionContext }, id: string): Record<string, string> {
  return { Location: `${commentsUrl(call.publicUrl, call.context.path)}/${id}` };
}

export const comments = endpoint({
  name: 'comments',
  service: 'discussion',
  context: 'content',
  operations: {
    GET: operation({
      summary: 'The conversation in thread order, batched (`b_start`, `b_size`; 25 by default)',
      permission: 'View',
      handle: async (call, deps) => {
        const { settings, caller } = await conversation(call, deps);
        const batch = readBatch(call.queryParams);
        const uid = call.context.uid as string;
        const thread = threadOrder(await deps.store.conversation(uid), caller);
        const page = thread.slice(batch.start, batch.start + batch.size);
        const usernames = [...new Set(page.flatMap((c) => (c.author_username === null ? [] : [c.author_username])))];
        const authors = await deps.authors.describe(usernames, call.requestId);
        const base = commentsUrl(call.publicUrl, call.context.path);
        const items = page.map((c) => renderComment(c, base, call.publicUrl, caller, authors, settings));
        return {
          status: 200,
          body: renderList(base, items, thread.length, batch, call.request.query, caller.canReply),
        };
      },
    }),
    POST: operation({
      summary: 'Adds a comment (`text`; anonymous: also `author_name`, `author_email`), or a reply to `<comment_id>`',
      paths: ['', ':comment_id'],
      permission: { permissionOf: postPermission, why: POST_ACCESS },
      params: postParams,
      guard: boundBody,
      body: postBody,
      handle: async (call, deps) => {
        const { settings, caller } = await conversation(call, deps);
        const uid = call.context.uid as string;
        const target = call.params.comment_id;
        if (call.body.text === undefined)
          throw badRequest('text is required', [{ field: 'text', message: 'required' }]);
        const id = await deps.commands.add(
          uid,
          target ?? null,
          {
            text: call.body.text,
            authorName: call.body.author_name,
            authorEmail: call.body.author_email,
            userNotification: call.body.user_notification,
            publicUrl: call.publicUrl,
          },
          caller,
          settings,
          call.requestId,
        );
        return { status: 204, headers: location(call, id) };
      },
    }),
    PATCH: operation({
      summary: "Edits a comment's text (its author, while the registry lets authors edit)",
      paths: [':comment_id'],
      permission: { rule: 'only the comment’s author may edit it, which no permission on the object says (edit)' },
      params: commentParams,
      guard: boundBody,
      body: editBody,
      handle: async (call, deps) => {
        const { settings, caller } = await conversation(call, deps);
        await deps.commands.edit(
          call.context.uid as string,
          call.params.comment_id,
          call.body.text,
          caller,
          settings,
          call.requestId,
        );
        return { status: 204, headers: location(call, call.params.comment_id) };
      },
    }),
    DELETE: operation({
      summary: 'Removes a comment and its replies (its author, or a moderator)',
      paths: [':comment_id'],
      permission: { rule: 'its author or a moderator: the comment decides, not a permission on the object (remove)' },
      params: commentParams,
      handle: async (call, deps) => {
        const { caller } = await conversation(call, deps);
        await deps.commands.remove(call.context.uid as string, call.params.comment_id, caller, call.requestId);
        return { status: 204 };
      },
    }),
  },
});
