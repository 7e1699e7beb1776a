import { declarations, type HttpRequest__Output } from '@cms/shared';
import type { AuthorDirectory } from '../clients/authors';
import type { DiscussionContext } from '../clients/contexts';
import type { SettingsSource } from '../clients/settings';
import type { CommentCommands } from '../domain/comment-commands';
import type { DiscussionSettings } from '../domain/settings';
import type { CommentStore } from '../store/comments';

/** What the discussion service's endpoints are given. Their context is the content object the comments are on. */
export interface DiscussionDeps {
  commands: CommentCommands;
  store: CommentStore;
  settings: SettingsSource;
  authors: AuthorDirectory;
}

export const { endpoint, operation } = declarations<DiscussionContext, DiscussionDeps>();

const perRequest = new WeakMap<HttpRequest__Output, Promise<DiscussionSettings>>();

/** The registry's discussion settings, read once per request (the guard and the handler share them). */
export function settingsOf(
  call: { request: HttpRequest__Output; requestId: string },
  deps: DiscussionDeps,
): Promise<DiscussionSettings> {
  let settings = perRequest.get(call.request);
  if (!settings) {
    settings = deps.settings.current(call.requestId);
    perRequest.set(call.request, settings);
  }
  return settings;
}
