/**
 * principals.json from identity's `ExportPrincipals` (groups, then users, one a message), as plone.exportimport
 * writes it but for the password hashes: ours are not Plone's, so none is written (`notExported` says so).
 */
import {
  requestMetadata,
  type ExportedPrincipal__Output,
  type IdentityServiceClient,
  type Principal__Output,
} from '@cms/shared';
import type { ExportPrincipals } from './plone-export';

/** What an export that writes principals.json cannot carry of it, for `notExported`. */
export const PRINCIPALS_NOT_EXPORTED =
  'principals.json passwords (a Plone password hash cannot be made from ours: users set a new one by a reset)';

export async function exportedPrincipals(
  identity: Pick<IdentityServiceClient, 'ExportPrincipals'>,
  principal: Principal__Output,
  requestId: string,
): Promise<ExportPrincipals> {
  const stream = identity.ExportPrincipals({ principal }, requestMetadata(requestId));
  const written: ExportPrincipals = { groups: [], members: [] };
  for await (const { group, user } of stream as AsyncIterable<ExportedPrincipal__Output>) {
    if (group)
      written.groups.push({
        groupid: group.id,
        title: group.title,
        description: group.description,
        email: group.email,
        roles: group.roles,
        groups: group.groups,
        principals: group.members,
      });
    if (user)
      written.members.push({
        username: user.id,
        login_name: user.login,
        fullname: user.fullname,
        email: user.email,
        description: user.description,
        home_page: user.home_page,
        location: user.location,
        roles: user.roles,
        groups: user.groups,
      });
  }
  return written;
}
