import { unary, type ConfigServiceHandlers, type Logger } from '@cms/shared';
import type { RecordChanges } from '../domain/changes';
import type { Registry } from '../domain/registry';

/** Typed RPCs other services call: current registry values, and a stream of what changes. */
export function configRpcs(
  registry: Registry,
  changes: RecordChanges,
  log: Logger,
): Omit<ConfigServiceHandlers, 'Handle'> {
  return {
    GetRecords: unary(log, async (request: { names: string[] }) => {
      const values = await registry.values(request.names);
      return {
        values_json: Object.fromEntries(Object.entries(values).map(([name, value]) => [name, JSON.stringify(value)])),
      };
    }),
    WatchRecords: watchRecords(changes),
  };
}

/** Streams the names of set records to one cache for as long as it listens; the first, empty message says it is live. */
export function watchRecords(changes: RecordChanges): ConfigServiceHandlers['WatchRecords'] {
  return (call) => {
    let open = true;
    let detach = () => {};
    const finish = () => {
      if (!open) return;
      open = false;
      detach();
    };
    call.on('cancelled', finish);
    call.on('error', finish);
    call.on('close', finish);
    detach = changes.attach({
      changed: (names) => {
        if (open && !call.cancelled) call.write({ names: [...names] });
      },
      end: () => {
        finish();
        call.end();
      },
    });
    if (open) call.write({ names: [] });
  };
}
