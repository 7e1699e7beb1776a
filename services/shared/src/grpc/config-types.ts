/**
 * How a service reads the content types, which the config service owns: `ConfigService.ListTypes`, cached only
 * while a `WatchTypes` stream to the config service is open and nothing was announced on it since the cache was
 * filled. The config service writes a change to the open streams before it answers the write, so the next
 * request sees it; with the stream closed every read goes to the config service, and the stream is reopened in
 * the background (the same contract as RegistrySettings).
 *
 * Schema edits (`ChangeSchema`) go over the same channel as the stream, so the stream's announcement of an edit
 * arrives before the edit's answer; the cache is also dropped when the answer comes.
 */
import type { ConfigServiceClient } from '../generated/cms/config/v1/ConfigService';
import type { ChangeSchemaRequest } from '../generated/cms/config/v1/ChangeSchemaRequest';
import type { ChangeSchemaResult__Output } from '../generated/cms/config/v1/ChangeSchemaResult';
import type { TypeDefinitions__Output } from '../generated/cms/config/v1/TypeDefinitions';
import type { TypesChanged__Output } from '../generated/cms/config/v1/TypesChanged';
import type { Logger } from '../logging/logger';
import type { ContentTypeDef } from '../types/content-type';
import { CacheWatch } from './cache-watch';
import { callUnary, createClient } from './client';
import { protos } from './loader';
import { typeDefinitionFromProto } from './type-definition';

export interface ConfigTypesOptions {
  address: string;
  timeoutMs: number;
  maxMessageBytes: number;
  log: Logger;
  /** Wait before reopening a closed stream; default 1 s. */
  reconnectMs?: number;
  /**
   * Longest wait for a connection to config when reading (default 3 s, above the channel's 2 s reconnect backoff):
   * a config that just restarted is reached, and one that is down fails the read without holding it longer.
   */
  connectWaitMs?: number;
}

/** The type definitions as last read, and whether they may be used without asking again. */
export interface TypeDefinitionsRead {
  definitions: ContentTypeDef[];
  /** Read from the config service by this call (false: from the cache). */
  fetched: boolean;
}

export class ConfigTypes {
  private readonly client: ConfigServiceClient;
  private cached: ContentTypeDef[] | undefined;
  /** The read from config under way, and the generation it started in. */
  private pending: { generation: number; answer: Promise<ContentTypeDef[]> } | undefined;
  private readonly stream: CacheWatch<TypesChanged__Output>;
  /** Counts invalidations, so that an answer that raced one is not cached. */
  private generation = 0;
  /** Reads that went to the config service (for tests and metrics). */
  remoteReads = 0;

  constructor(private readonly options: ConfigTypesOptions) {
    this.client = createClient(protos().config.ConfigService, options.address, options.maxMessageBytes);
    this.stream = new CacheWatch({
      open: () => this.client.WatchTypes({}),
      // Any message drops the cache: the names say which types changed, but the cache holds them all as one answer.
      onMessage: () => this.invalidate(),
      onClosed: () => this.invalidate(),
      log: options.log,
      what: 'types',
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

  /**
   * Every type's definition, in listing order: the cached ones while the stream vouches for them.
   * `waitForConnection: false` fails at once while config is known to be unreachable, instead of waiting up to
   * connectWaitMs for it on every request of an outage.
   */
  async definitions(requestId: string, options: { waitForConnection?: boolean } = {}): Promise<TypeDefinitionsRead> {
    if (this.live && this.cached) return { definitions: this.cached, fetched: false };
    // While the stream is live, a read started since the last change announced answers for this one too.
    if (this.live && this.pending?.generation === this.generation) {
      return { definitions: await this.pending.answer, fetched: true };
    }
    const generation = this.generation;
    const answer = this.fetch(requestId, options.waitForConnection ?? true);
    this.pending = { generation, answer };
    try {
      const definitions = await answer;
      if (this.live && generation === this.generation) this.cached = definitions;
      return { definitions, fetched: true };
    } finally {
      if (this.pending?.answer === answer) this.pending = undefined;
    }
  }

  private async fetch(requestId: string, waitForConnection: boolean): Promise<ContentTypeDef[]> {
    this.remoteReads += 1;
    // Waits for a connection (within connectWaitMs): just after config restarted, the channel may still be backing
    // off, and failing at once would fail the request that asked.
    const answer = await callUnary<TypeDefinitions__Output>(
      (md, o, cb) => {
        if (waitForConnection) md.setOptions({ waitForReady: true });
        this.client.ListTypes({}, md, o, cb);
      },
      { requestId, timeoutMs: Math.min(this.options.timeoutMs, this.options.connectWaitMs ?? 3000) },
    );
    return answer.types.map(typeDefinitionFromProto);
  }

  /** One schema edit (`@types`); what an addition created. */
  async changeSchema(request: ChangeSchemaRequest, requestId: string): Promise<ChangeSchemaResult__Output> {
    try {
      return await callUnary<ChangeSchemaResult__Output>((md, o, cb) => this.client.ChangeSchema(request, md, o, cb), {
        requestId,
        timeoutMs: this.options.timeoutMs,
      });
    } finally {
      // Whatever the stream said, this process's next read asks again (a failed edit may have been stored).
      this.invalidate();
    }
  }

  /** Drops the cache: the next read asks the config service. */
  invalidate(): void {
    this.generation += 1;
    this.cached = undefined;
  }

  close(): void {
    this.stream.close();
    this.invalidate();
    this.client.close();
  }
}
