/** What `@system` reports: the versions of what this process runs on, gathered once at start. */
export interface SystemInfo {
  cms_version: string;
  node_version: string;
  store: { kind: string; driver_version: string | null };
  broker: { kind: string; driver_version: string | null };
  debug_mode: boolean;
  upgradeable: boolean;
}
