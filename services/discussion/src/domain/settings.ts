/** The registry's discussion settings that the comment rules read (config service, `IDiscussionSettings`). */
export interface DiscussionSettings {
  globallyEnabled: boolean;
  anonymousComments: boolean;
  moderationEnabled: boolean;
  /** The `mime-type` new comments are stored with (`text/plain` or `text/x-web-intelligent`). */
  textTransform: string;
  userNotificationEnabled: boolean;
  /** Mail the moderator (`moderatorEmail`) when a comment awaits moderation. */
  moderatorNotificationEnabled: boolean;
  /** Empty when none is set. */
  moderatorEmail: string;
  showCommenterImage: boolean;
  editCommentEnabled: boolean;
  maxCommentLength: number;
}

/** The values of a new site (config service, domain/records.ts). */
export const DEFAULT_SETTINGS: DiscussionSettings = {
  globallyEnabled: false,
  anonymousComments: false,
  moderationEnabled: false,
  textTransform: 'text/plain',
  userNotificationEnabled: false,
  moderatorNotificationEnabled: false,
  moderatorEmail: '',
  showCommenterImage: true,
  editCommentEnabled: true,
  maxCommentLength: 10000,
};
