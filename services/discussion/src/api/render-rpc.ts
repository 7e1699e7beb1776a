/**
 * `RenderComments`: comments serialized whole for search's `fullobjects` (Volto's Moderate comments asks
 * `@search?portal_type=Discussion Item&fullobjects` and shows each item's text, author and Edit/Delete as allowed).
 * Each is rendered as `@comments` renders it for the caller, at its `++conversation++default` address (the `@id`
 * search gives it, which the moderation panel acts on); what the caller may not see is left out.
 */
import {
  AppError,
  badRequest,
  hasPermission,
  unary,
  urlOf,
  type CallContext,
  type ContextResolver,
  type DiscussionServiceHandlers,
  type Logger,
  type Principal__Output,
} from '@cms/shared';
import { z } from 'zod';
import type { AuthorDirectory } from '../clients/authors';
import type { SettingsSource } from '../clients/settings';
import type { DiscussionContext } from '../clients/contexts';
import { capabilitiesOf, discussionAllowed, isVisible, type Capabilities, type CommentDoc } from '../domain/comment';
import type { CommentStore } from '../store/comments';
import { renderComment } from './render';

/** What search asks: at most a search batch of comments, each named by its object's path and UID and its id. */
const commentRefs = z
  .array(
    z.object({
      content_path: z.string().startsWith('/').max(4096),
      content_uid: z.string().min(1).max(64),
      comment_id: z.string().min(1).max(64),
    }),
  )
  .max(1000);
type CommentRef = z.infer<typeof commentRefs>[number];

export interface RenderDeps {
  store: CommentStore;
  settings: SettingsSource;
  authors: AuthorDirectory;
  contexts: ContextResolver<DiscussionContext>;
}

export function renderRpc(deps: RenderDeps, log: Logger): Pick<DiscussionServiceHandlers, 'RenderComments'> {
  return {
    RenderComments: unary(
      log,
      async (
        request: { comments?: unknown; principal?: Principal__Output | null; public_url?: string },
        ctx: CallContext,
      ) => {
        const parsed = commentRefs.safeParse(request.comments ?? []);
        if (!parsed.success) {
          throw badRequest(
            'RenderComments takes up to 1000 comments, each with a content_path, content_uid and comment_id',
          );
        }
        const refs = parsed.data;
        const principal = request.principal ?? null;
        const publicUrl = request.public_url ?? '';
        const settings = await deps.settings.current(ctx.requestId);
        // One conversation per content object: its context decides what the caller may see and do there.
        const byContent = new Map<string, CommentRef[]>();
        for (const ref of refs) byContent.set(ref.content_path, [...(byContent.get(ref.content_path) ?? []), ref]);
        const found = new Map<string, { comment: CommentDoc; base: string; caller: Capabilities }>();
        for (const [path, group] of byContent) {
          const context = await contextAt(deps.contexts, path, ctx.requestId, publicUrl);
          if (!context || !hasPermission(principal, 'View', context.scope)) continue;
          const allowed = discussionAllowed(settings, context);
          const caller = capabilitiesOf(principal, context.scope, settings, allowed);
          const base = `${urlOf(publicUrl, context.path)}/++conversation++default`;
          for (const ref of group) {
            // Moved since search indexed it, or a comment of another object: not this one's.
            if (ref.content_uid !== context.uid) continue;
            const comment = await deps.store.one(context.uid, ref.comment_id);
            if (comment && isVisible(comment, caller)) found.set(ref.comment_id, { comment, base, caller });
          }
        }
        const usernames = [...found.values()].flatMap(({ comment }) =>
          comment.author_username === null ? [] : [comment.author_username],
        );
        const authors = await deps.authors.describe([...new Set(usernames)], ctx.requestId);
        return {
          comments: refs.flatMap((ref) => {
            const hit = found.get(ref.comment_id);
            if (!hit) return [];
            const body = renderComment(hit.comment, hit.base, publicUrl, hit.caller, authors, settings);
            return [{ comment_id: ref.comment_id, json: Buffer.from(JSON.stringify(body)) }];
          }),
        };
      },
    ),
  };
}

/** The content object at `path`, or null where there is none now. */
async function contextAt(
  contexts: ContextResolver<DiscussionContext>,
  path: string,
  requestId: string,
  publicUrl: string,
): Promise<DiscussionContext | null> {
  try {
    return (await contexts.resolve(path, requestId, publicUrl)).context;
  } catch (error) {
    if (error instanceof AppError && error.type === 'NotFound') return null;
    throw error;
  }
}
