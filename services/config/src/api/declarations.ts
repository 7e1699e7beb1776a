import { declarations, type ContentContext } from '@cms/shared';
import type { Registry } from '../domain/registry';
import type { SystemInfo } from '../domain/system';

/** What the config service's endpoints are given. */
export interface ConfigDeps {
  registry: Registry;
  /** What `@system` reports about the running process. */
  system: SystemInfo;
}

export const { endpoint, operation } = declarations<ContentContext, ConfigDeps>();
