import type { Document, Principal } from '@cms/shared';

/** A user account as stored. `_id` is the user id. */
export interface UserDoc extends Document {
  _id: string;
  /** Login name (the user id, or the e-mail address when e-mail login is on). */
  login: string;
  fullname: string;
  email: string;
  roles: string[];
  groups: string[];
  password_hash: string;
}

export function principalOf(user: UserDoc): Principal {
  return { id: user._id, roles: user.roles, groups: user.groups, fullname: user.fullname };
}
