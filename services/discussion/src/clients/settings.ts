import { callUnary, createClient, protos } from '@cms/shared';
import { DEFAULT_SETTINGS, type DiscussionSettings } from '../domain/settings';

const PREFIX = 'cms.app.discussion.interfaces.IDiscussionSettings.';

/** The registry records each setting is read from. */
const RECORDS: { [K in keyof DiscussionSettings]: string } = {
  globallyEnabled: `${PREFIX}globally_enabled`,
  anonymousComments: `${PREFIX}anonymous_comments`,
  moderationEnabled: `${PREFIX}moderation_enabled`,
  textTransform: `${PREFIX}text_transform`,
  userNotificationEnabled: `${PREFIX}user_notification_enabled`,
  moderatorNotificationEnabled: `${PREFIX}moderator_notification_enabled`,
  moderatorEmail: `${PREFIX}moderator_email`,
  showCommenterImage: `${PREFIX}show_commenter_image`,
  editCommentEnabled: `${PREFIX}edit_comment_enabled`,
  maxCommentLength: `${PREFIX}max_comment_length`,
};

export interface SettingsSource {
  /** The discussion settings as the registry holds them now (read once per request). */
  current(requestId: string): Promise<DiscussionSettings>;
}

/**
 * The discussion settings from the config service (`GetRecords`). An unreachable config service fails the request
 * (503) rather than answer under the wrong rules; a value of an unexpected type falls back to the default.
 */
export function registrySettings(address: () => string, timeoutMs: number, maxMessageBytes: number) {
  let client: ReturnType<typeof connect> | undefined;
  const connect = () => createClient(protos().config.ConfigService, address(), maxMessageBytes);
  const names = Object.values(RECORDS);
  const source: SettingsSource & { close(): void } = {
    async current(requestId) {
      const config = (client ??= connect());
      const { values_json: values } = await callUnary<{ values_json: Record<string, string> }>(
        (md, o, cb) => config.GetRecords({ names }, md, o, cb),
        { requestId, timeoutMs },
      );
      const read = <K extends keyof DiscussionSettings>(key: K): DiscussionSettings[K] => {
        const raw = values[RECORDS[key]];
        const value: unknown = raw === undefined ? undefined : JSON.parse(raw);
        return typeof value === typeof DEFAULT_SETTINGS[key] ? (value as DiscussionSettings[K]) : DEFAULT_SETTINGS[key];
      };
      return {
        globallyEnabled: read('globallyEnabled'),
        anonymousComments: read('anonymousComments'),
        moderationEnabled: read('moderationEnabled'),
        textTransform: read('textTransform'),
        userNotificationEnabled: read('userNotificationEnabled'),
        moderatorNotificationEnabled: read('moderatorNotificationEnabled'),
        moderatorEmail: read('moderatorEmail'),
        showCommenterImage: read('showCommenterImage'),
        editCommentEnabled: read('editCommentEnabled'),
        maxCommentLength: read('maxCommentLength'),
      };
    },
    close: () => client?.close(),
  };
  return source;
}
