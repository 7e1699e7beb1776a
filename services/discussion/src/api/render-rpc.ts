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
import type { AuthorDirectory } from '../clients/authors';
import type { SettingsSource } from '../clients/settings';
import type { DiscussionContext } from '../clients/contexts';
import { capabilitiesOf, discussionAllowed, isVisible, type CommentDoc } from '../domain/comment';
import type { CommentStore } from '../store/comments';
import { renderComment } from './render';

/** As long as a search batch may be (search bounds `b_size` the same way). */
const MAX_COMMENTS = 1000;
const MAX_ID_LENGTH = 64;
const MAX_PATH_LENGTH = 4096;

interface CommentRef {
  content_path?: string;
  content_uid?: string;
  comment_id?: string;
}

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
        request: { comments?: CommentRef[]; principal?: Principal__Output | null; public_url?: string },
        ctx: CallContext,
      ) => {
        const refs = request.comments ?? [];
        if (refs.length > MAX_COMMENTS) throw badRequest(`RenderComments takes at most ${MAX_COMMENTS} comments`);
        for (const ref of refs) {
          if (
            !ref.content_path?.startsWith('/') ||
            ref.content_path.length > MAX_PATH_LENGTH ||
            !ref.comment_id ||
            ref.comment_id.length > MAX_ID_LENGTH ||
            !ref.content_uid ||
            ref.content_uid.length > MAX_ID_LENGTH
          ) {
            throw badRequest('RenderComments needs a content_path, content_uid and comment_id for each comment');
          }
        }
        const principal = request.principal ?? null;
        const publicUrl = request.public_url ?? '';
        const settings = await deps.settings.current(ctx.requestId);
        // One conversation per content object: its context decides what the caller may see and do there.
        const byContent = new Map<string, CommentRef[]>();
        for (const ref of refs) byContent.set(ref.content_path!, [...(byContent.get(ref.content_path!) ?? []), ref]);
        const found = new Map<
          string,
          { comment: CommentDoc; base: string; caller: ReturnType<typeof capabilitiesOf> }
        >();
        for (const [path, group] of byContent) {
          const context = await contextAt(deps.contexts, path, ctx.requestId, publicUrl);
          if (!context || !hasPermission(principal, 'View', context.scope)) continue;
          const allowed = discussionAllowed(settings, context);
          const caller = capabilitiesOf(principal, context.scope, settings, allowed);
          const base = `${urlOf(publicUrl, context.path)}/++conversation++default`;
          for (const ref of group) {
            // Moved since search indexed it, or a comment of another object: not this one's.
            if (ref.content_uid !== context.uid) continue;
            const comment = await deps.store.one(context.uid, ref.comment_id!);
            if (comment && isVisible(comment, caller)) found.set(ref.comment_id!, { comment, base, caller });
          }
        }
        const usernames = [...found.values()].flatMap(({ comment }) =>
          comment.author_username === null ? [] : [comment.author_username],
        );
        const authors = await deps.authors.describe([...new Set(usernames)], ctx.requestId);
        return {
          comments: refs.flatMap((ref) => {
            const hit = found.get(ref.comment_id!);
            if (!hit) return [];
            const body = renderComment(hit.comment, hit.base, publicUrl, hit.caller, authors, settings);
            return [{ comment_id: ref.comment_id!, json: Buffer.from(JSON.stringify(body)) }];
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
