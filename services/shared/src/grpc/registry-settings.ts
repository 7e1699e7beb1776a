/**
 * How a service reads registry settings (site title, navigation depth, ...): `ConfigService.GetRecords`, with
 * a small cache that is trusted only while a `WatchRecords` stream to the config service is open, and from
 * which every record that stream names is dropped. The config service writes a change to the open streams
 * before it answers the write, so the next request sees it; with the stream closed every read goes to the
 * config service, and the stream is reopened in the background.
 */
import type { ConfigServiceClient } from '../generated/cms/config/v1/ConfigService';
import type { RecordsChanged__Output } from '../generated/cms/config/v1/RecordsChanged';
import type { RecordValues__Output } from '../generated/cms/config/v1/RecordValues';
import type { Logger } from '../logging/logger';
import { CacheWatch } from './cache-watch';
import { callUnary, createClient } from './client';
import { protos } from './loader';

export interface RegistrySettingsOptions {
  address: string;
  timeoutMs: number;
  maxMessageBytes: number;
  log: Logger;
  /** Wait before reopening a closed stream; default 1 s. */
  reconnectMs?: number;
}

export class RegistrySettings {
  private readonly client: ConfigServiceClient;
  private readonly cache = new Map<string, unknown>();
  private readonly stream: CacheWatch<RecordsChanged__Output>;
  /** Counts invalidations, so that an answer that raced one is not cached. */
  private generation = 0;
  /** Reads that went to the config service (for tests and metrics). */
  remoteReads = 0;
  /** What `derived` made of the values, by the function that made it, with the generation it is current for. */
  private readonly views = new Map<
    (values: Record<string, unknown>) => unknown,
    { generation: number; view: unknown }
  >();

  constructor(private readonly options: RegistrySettingsOptions) {
    this.client = createClient(protos().config.ConfigService, options.address, options.maxMessageBytes);
    this.stream = new CacheWatch({
      open: () => this.client.WatchRecords({}),
      onMessage: (message) => {
        this.generation += 1;
        for (const name of message.names) this.cache.delete(name);
      },
      onClosed: () => this.distrust(),
      log: options.log,
      what: 'registry',
      reconnectMs: options.reconnectMs,
    });
  }

  /** Whether the cache is in use (its stream is open). */
  get watching(): boolean {
    return this.stream.live;
  }

  private get live(): boolean {
    return this.stream.live;
  }

  /** The current values of `names`, decoded from JSON; an unknown name rejects with NotFound. */
  async get(names: readonly string[], requestId: string): Promise<Record<string, unknown>> {
    const missing = names.filter((name) => !this.live || !this.cache.has(name));
    const values: Record<string, unknown> = {};
    if (missing.length) {
      const generation = this.generation;
      this.remoteReads += 1;
      const answer = await callUnary<RecordValues__Output>(
        (md, o, cb) => this.client.GetRecords({ names: missing }, md, o, cb),
        { requestId, timeoutMs: this.options.timeoutMs },
      );
      const cacheable = this.live && generation === this.generation;
      for (const [name, json] of Object.entries(answer.values_json)) {
        values[name] = JSON.parse(json) as unknown;
        if (cacheable) this.cache.set(name, values[name]);
      }
    }
    for (const name of names) if (!(name in values)) values[name] = this.cache.get(name);
    return values;
  }

  /**
   * What `derive` makes of the current values of `names` (always the same names for one `derive`), made again only
   * after a change to any record or with the stream closed: the readers that ask on every request (the gateway's
   * caching rules, content's site settings) then neither copy the values nor parse them per request.
   */
  async derived<T>(
    names: readonly string[],
    requestId: string,
    derive: (values: Record<string, unknown>) => T,
  ): Promise<T> {
    const known = this.views.get(derive);
    if (known && this.live && known.generation === this.generation) return known.view as T;
    const generation = this.generation;
    const view = derive(await this.get(names, requestId));
    // Kept only when every value it was made of is in the cache, unchanged since it was read.
    if (this.live && generation === this.generation && names.every((name) => this.cache.has(name))) {
      this.views.set(derive, { generation, view });
    }
    return view;
  }

  /** One value (see `get`). */
  async value<T = unknown>(name: string, requestId: string): Promise<T> {
    return (await this.get([name], requestId))[name] as T;
  }

  close(): void {
    this.stream.close();
    this.distrust();
    this.client.close();
  }

  private distrust(): void {
    this.generation += 1;
    this.cache.clear();
    this.views.clear();
  }
}
