/**
 * Other services' view of the registry: `RegistrySettings` (services/shared) caches `GetRecords` answers while
 * its `WatchRecords` stream is open, and a write through the config service drops what it changed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  callUnary,
  createClient,
  createLogger,
  protos,
  RegistrySettings,
  type ConfigServiceClient,
  type DocumentStore,
  type HttpRequest,
  type HttpResponse__Output,
  type RunningService,
} from '@cms/shared';
import { createInProcessBus, openEmbeddedStore } from '@cms/shared/adapters';
import { pollUntil } from '../../../test/support/poll';
import { configConfigSchema, startConfigService } from '../src';
import { CONFIG_CONSUMER_GROUPS } from '../src/events/rules-consumer';

const TITLE = 'cms.site_title';
const DEPTH = 'cms.navigation_depth';

describe('registry settings as other services read them', () => {
  let dataDir: string;
  let store: DocumentStore;
  let service: RunningService;
  let client: ConfigServiceClient;
  let settings: RegistrySettings;
  const log = createLogger('test', 'silent');

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'config-settings-'));
    store = await openEmbeddedStore(dataDir);
    const config = configConfigSchema.parse({ CONFIG_GRPC_ADDRESS: '127.0.0.1:0' });
    // The rules consumer subscribes; nothing is published here.
    const bus = createInProcessBus({ topology: CONFIG_CONSUMER_GROUPS, logger: createLogger('bus', 'silent') });
    service = await startConfigService({ config, logger: log, store, bus });
    client = createClient(protos().config.ConfigService, service.address, config.MAX_MESSAGE_BYTES);
    settings = new RegistrySettings({
      address: service.address,
      timeoutMs: 5000,
      maxMessageBytes: config.MAX_MESSAGE_BYTES,
      log,
      reconnectMs: 50,
    });
  });

  afterAll(async () => {
    settings.close();
    client.close();
    await service.stop();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function patch(body: unknown) {
    const request: HttpRequest = {
      method: 'PATCH',
      context_path: [],
      endpoint: 'registry',
      sub_path: [],
      query: [],
      body: Buffer.from(JSON.stringify(body)),
      principal: { id: 'admin', roles: ['Manager'], groups: [], fullname: '' },
      public_url: 'http://localhost:8080',
      request_id: 't',
      headers: {},
    };
    return callUnary<HttpResponse__Output>((md, o, cb) => client.Handle(request, md, o, cb), {
      requestId: 't',
      timeoutMs: 5000,
    });
  }

  it('reads typed values, then serves them from its cache while watching', async () => {
    await pollUntil(() => settings.watching, 5000, { description: 'the watch stream is live' });
    expect(await settings.get([TITLE, DEPTH], 't')).toEqual({ [TITLE]: 'CMS site', [DEPTH]: 3 });
    const reads = settings.remoteReads;
    expect(await settings.value(TITLE, 't')).toBe('CMS site');
    expect(settings.remoteReads).toBe(reads);
  });

  it('drops a changed record from its cache when the config service writes it', async () => {
    await settings.get([TITLE, DEPTH], 't');
    // (Not the site title: its write has content rename the site root, and no content service runs here.)
    expect((await patch({ [DEPTH]: 5 })).status).toBe(204);
    await pollUntil(async () => (await settings.value(DEPTH, 't')) === 5, 5000, {
      description: 'the new depth',
    });
    // The record that did not change is still served from the cache.
    const reads = settings.remoteReads;
    expect(await settings.value(TITLE, 't')).toBe('CMS site');
    expect(settings.remoteReads).toBe(reads);
  });

  it('makes a derived view once while nothing changes, and again after a write', async () => {
    const made: unknown[] = [];
    const depthOf = (values: Record<string, unknown>) => {
      made.push(values[DEPTH]);
      return { depth: values[DEPTH] };
    };
    const first = await settings.derived([DEPTH], 't', depthOf);
    expect(await settings.derived([DEPTH], 't', depthOf)).toBe(first);
    expect(made).toHaveLength(1);
    expect((await patch({ [DEPTH]: 6 })).status).toBe(204);
    await pollUntil(async () => (await settings.derived([DEPTH], 't', depthOf)).depth === 6, 5000, {
      description: 'the view made again from the new depth',
    });
    expect(made.at(-1)).toBe(6);
  });

  it('rejects an unknown record with NotFound', async () => {
    await expect(settings.get(['no.such.record'], 't')).rejects.toMatchObject({ type: 'NotFound' });
  });

  it('stops trusting its cache when the config service goes away', async () => {
    await settings.get([DEPTH], 't');
    await service.stop();
    await pollUntil(() => !settings.watching, 5000, { description: 'the watch stream closed' });
    // Nothing is served from the cache now: the read goes to the (stopped) config service and fails.
    await expect(settings.get([DEPTH], 't')).rejects.toBeDefined();
  });
});
