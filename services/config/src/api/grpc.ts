import { unary, type ConfigServiceHandlers, type Logger } from '@cms/shared';
import type { Registry } from '../domain/registry';

/** Typed RPCs other services call: current registry values. */
export function configRpcs(registry: Registry, log: Logger): Omit<ConfigServiceHandlers, 'Handle'> {
  return {
    GetRecords: unary(log, async (request: { names: string[] }) => {
      const values = await registry.values(request.names);
      return {
        values_json: Object.fromEntries(Object.entries(values).map(([name, value]) => [name, JSON.stringify(value)])),
      };
    }),
  };
}
