import { declarations, type ContentContext } from '@cms/shared';
import type { Authenticator } from '../domain/authenticator';
import type { GroupCommands } from '../domain/groups';
import type { PasswordResets } from '../domain/password-reset';
import type { SiteMail } from '../domain/site-mail';
import type { TokenService, UserById } from '../domain/tokens';
import type { UserCommands } from '../domain/users';

/** What the identity service's endpoints are given. */
export interface IdentityDeps {
  authenticator: Authenticator;
  tokens: TokenService;
  /** The stored users, by id. */
  accounts: UserById;
  users: UserCommands;
  groups: GroupCommands;
  /** `@users/<id>/reset-password`. */
  resets: PasswordResets;
  /** `@email-send` and `@email-notification`. */
  siteMail: SiteMail;
}

export const { endpoint, operation } = declarations<ContentContext, IdentityDeps>();
