/** What `@system` reports: the versions of what this process runs on, gathered once at start. */
/**
 * The release of the original's REST API layer whose interface this service speaks, as clients compare it: the 8.x
 * line, since the deprecated `@tiles` that version 9 removes is still served (specification, Versioning 1); Volto's
 * User Group Membership panel needs 8.24 or later.
 */
export const REST_API_LEVEL = '8.43.0';

export interface SystemInfo {
  cms_version: string;
  /** `REST_API_LEVEL`, under the name clients read (Volto's Site Setup). */
  plone_restapi_version: string;
  node_version: string;
  store: { kind: string; driver_version: string | null };
  broker: { kind: string; driver_version: string | null };
  debug_mode: boolean;
  upgradeable: boolean;
}
