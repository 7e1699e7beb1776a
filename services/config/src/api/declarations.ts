import { declarations, type ContentContext } from '@cms/shared';
import type { Registry } from '../domain/registry';

/** What the config service's endpoints are given. */
export interface ConfigDeps {
  registry: Registry;
}

export const { endpoint, operation } = declarations<ContentContext, ConfigDeps>();
