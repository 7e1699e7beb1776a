import {
  requireCallerPermission,
  serverStream,
  type ExportPrincipalsRequest__Output,
  type IdentityServiceHandlers,
  type Logger,
} from '@cms/shared';
import type { GroupStore } from '../domain/groups-repository';
import { exportedPrincipals } from '../domain/principals-export';
import type { UserStore } from '../domain/users-repository';

/**
 * `ExportPrincipals`: users and groups for a site export, to a caller with the service proof (checked for every
 * call) exporting for a principal with `plone.exportimport.export`, as content's `ExportObjects` asks.
 */
export function principalsExportRpc(
  users: UserStore,
  groups: GroupStore,
  log: Logger,
): Pick<IdentityServiceHandlers, 'ExportPrincipals'> {
  return {
    ExportPrincipals: serverStream(log, async function* (request: ExportPrincipalsRequest__Output) {
      requireCallerPermission(request.principal, 'plone.exportimport.export', 'Exporting users and groups');
      yield* exportedPrincipals(users, groups);
    }),
  };
}
