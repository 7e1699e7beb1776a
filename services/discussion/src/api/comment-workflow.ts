/**
 * `@comments/<comment_id>/@workflow/<transition>`: a moderator approves (`publish`) or rejects (`reject`) a pending
 * comment (addendum §8; also reached as `++conversation++default/<comment_id>/@workflow/<transition>`). A part of
 * `@comments` (comments.ts) of its own: the gateway routes by the first `@` segment, so the sub-path stays there.
 */
import { proofOf } from '@cms/shared';
import { z } from 'zod';
import { boundBody, conversation, postBody } from './conversation';
import { endpoint, operation } from './declarations';
import { commentsUrl } from './render';

const transitionParams = z.object({ comment_id: z.string().max(40), transition: z.string().max(100) });

const MODERATION_ACCESS =
  '"Moderate Discussion" whatever the request, but evaluated after the guard (a fixed permission is checked ' +
  'before it), so that where the object does not allow discussion a transition is 404 like every method of ' +
  '@comments, and a body over the limit 413';

export const commentWorkflow = endpoint({
  name: 'comments',
  service: 'discussion',
  context: 'content',
  operations: {
    POST: operation({
      summary: 'A moderator approves or rejects a pending comment: `<comment_id>/@workflow/publish` or `reject`',
      paths: [':comment_id/@workflow/:transition'],
      permission: { permissionOf: () => 'Moderate Discussion', why: MODERATION_ACCESS },
      params: transitionParams,
      guard: boundBody,
      // The body a comment's POST takes (this was one operation with it): only its `comment`, a note, is meant here.
      body: postBody,
      handle: async (call, deps) => {
        const { caller } = await conversation(call, deps);
        const { comment_id: target, transition } = call.params;
        const moderating = proofOf(call.proof, 'Moderate Discussion');
        const uid = call.context.uid as string;
        const state = await deps.commands.transition(uid, target, transition, caller, call.requestId, moderating);
        return {
          status: 200,
          body: {
            '@id': `${commentsUrl(call.publicUrl, call.context.path)}/${target}`,
            action: transition,
            review_state: state,
          },
        };
      },
    }),
  },
});
