import { createClient, protos, type ConfigServiceClient, type Logger } from '@cms/shared';
import type { ChangeFeed } from './change-feed';

/** The part of a grpc-js server stream this watcher uses. */
interface NameStream {
  on(event: 'data', listener: (message: { names: string[] }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  cancel(): void;
}

const REOPEN_MS = 1000;
/** A registry or type change may alter any rendered answer (image scales, languages, schemas): all of them go. */
const EVERYTHING = ['/'];

/**
 * Puts every registry and type change (config's `WatchRecords` and `WatchTypes` streams) into the change feed
 * as a change of everything, so that the gateway's cache drops answers rendered under the old settings. Config
 * writes a change to the open streams before it answers the write; the feed has it once this process has read
 * it (the same guarantee as the registry cache every service keeps, `RegistrySettings`); nothing here waits for
 * the gateways' acks, config having answered already. While a stream is down changes may be missed: until it is
 * live again the gateways serve nothing from their caches (`blind`), and then start over.
 */
export function watchConfigChanges(
  address: string,
  maxMessageBytes: number,
  feed: ChangeFeed,
  log: Logger,
): { close(): void } {
  const client = createClient(protos().config.ConfigService, address, maxMessageBytes) as ConfigServiceClient;
  let closed = false;
  const streams = new Set<NameStream>();
  const timers = new Set<NodeJS.Timeout>();
  const watch = (open: () => NameStream, what: string) => {
    if (closed) return;
    const stream = open();
    streams.add(stream);
    let ended = false;
    stream.on('data', () => {
      void feed.record(EVERYTHING);
      // The first message says the stream is live: from now on no change passes unannounced.
      if (!ended) void feed.following(what, true);
    });
    const reopen = (error?: Error) => {
      if (ended) return;
      ended = true;
      streams.delete(stream);
      void feed.following(what, false);
      void feed.record(EVERYTHING);
      if (closed) return;
      if (error) log.debug({ err: error }, `${what} watch stream closed; reopening`);
      const timer = setTimeout(() => {
        timers.delete(timer);
        watch(open, what);
      }, REOPEN_MS);
      timer.unref();
      timers.add(timer);
    };
    stream.on('error', reopen);
    stream.on('end', () => reopen());
  };
  void feed.following('registry', false);
  void feed.following('types', false);
  watch(() => client.WatchRecords({}) as unknown as NameStream, 'registry');
  watch(() => client.WatchTypes({}) as unknown as NameStream, 'types');
  return {
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      for (const stream of streams) stream.cancel();
      client.close();
    },
  };
}
