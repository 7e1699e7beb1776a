/**
 * Content types as other services read them: config owns them (the built-ins seeded on first start), and
 * `ConfigTypes` (services/shared) caches `ListTypes` while its `WatchTypes` stream is open; every change made
 * through config drops that cache before the change is answered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BUILTIN_TYPES,
  callUnary,
  ConfigTypes,
  createClient,
  createLogger,
  protos,
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

describe('content types as other services read them', () => {
  let dataDir: string;
  let store: DocumentStore;
  let service: RunningService;
  let client: ConfigServiceClient;
  let types: ConfigTypes;
  const log = createLogger('test', 'silent');
  const config = configConfigSchema.parse({ CONFIG_GRPC_ADDRESS: '127.0.0.1:0' });

  async function start() {
    const bus = createInProcessBus({ topology: CONFIG_CONSUMER_GROUPS, logger: createLogger('bus', 'silent') });
    service = await startConfigService({ config, logger: log, store, bus });
    client = createClient(protos().config.ConfigService, service.address, config.MAX_MESSAGE_BYTES);
    types = new ConfigTypes({
      address: service.address,
      timeoutMs: 5000,
      maxMessageBytes: config.MAX_MESSAGE_BYTES,
      log,
      reconnectMs: 50,
      connectWaitMs: 500,
    });
  }

  async function stop() {
    types.close();
    client.close();
    await service.stop();
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'config-types-'));
    store = await openEmbeddedStore(dataDir);
    await start();
  });

  afterAll(async () => {
    await stop();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function panel(method: string, subPath: string[], body: unknown) {
    const request: HttpRequest = {
      method,
      context_path: [],
      endpoint: 'controlpanels',
      sub_path: ['cms-types', ...subPath],
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

  const names = async () => (await types.definitions('t')).definitions.map((d) => d.name);

  it('serves the seeded built-in types, then from its cache while watching', async () => {
    await pollUntil(() => types.watching, 5000, { description: 'the watch stream is live' });
    const first = await types.definitions('t');
    expect(first.definitions).toEqual(JSON.parse(JSON.stringify(BUILTIN_TYPES)));
    const reads = types.remoteReads;
    expect((await types.definitions('t')).fetched).toBe(false);
    expect(types.remoteReads).toBe(reads);
  });

  it('reads once for the calls that ask together after a change', async () => {
    types.invalidate();
    const reads = types.remoteReads;
    const answers = await Promise.all([types.definitions('a'), types.definitions('b'), types.definitions('c')]);
    expect(types.remoteReads).toBe(reads + 1);
    expect(answers[2].definitions).toEqual(answers[0].definitions);
  });

  it('sees a schema edit made through its own channel on the very next read', async () => {
    await types.definitions('t');
    const added = await types.changeSchema(
      {
        type: 'Document',
        change: 'SCHEMA_CHANGE_ADD',
        body_json: JSON.stringify({ factory: 'label_integer_field', title: 'Pages' }),
      },
      't',
    );
    expect(added).toEqual({ created: 'pages', fieldset: false });
    const document = (await types.definitions('t')).definitions.find((d) => d.name === 'Document');
    expect(document?.generated).toEqual([
      { name: 'pages', kind: 'int', title: 'Pages', description: '', fieldset: 'default' },
    ]);
    await expect(
      types.changeSchema({ type: 'Document', change: 'SCHEMA_CHANGE_REMOVE', target: 'title' }, 't'),
    ).rejects.toMatchObject({ type: 'BadRequest' });
  });

  it('drops its cache when a type is created in the panel', async () => {
    await types.definitions('t');
    expect((await panel('POST', [], { title: 'Recipe', description: 'A dish' })).status).toBe(201);
    await pollUntil(async () => (await names()).includes('recipe'), 5000, { description: 'the new type' });
    expect((await names()).at(-1)).toBe('recipe');
  });

  it('keeps the types across a restart, seeding only a site that has none', async () => {
    await stop();
    await start();
    const read = await names();
    expect(read).toEqual([...BUILTIN_TYPES.map((d) => d.name), 'recipe']);
    const document = (await types.definitions('t')).definitions.find((d) => d.name === 'Document');
    expect(document?.generated?.map((f) => f.name)).toEqual(['pages']);
  });

  it('stops trusting its cache when the config service goes away', async () => {
    await pollUntil(() => types.watching, 5000, { description: 'the watch stream is live' });
    await types.definitions('t');
    await service.stop();
    await pollUntil(() => !types.watching, 5000, { description: 'the watch stream closed' });
    // Nothing is served from the cache now: the read goes to the (stopped) config service and fails, having waited
    // for a connection (its deadline passes) unless told not to (it is refused at once: the channel knows no peer).
    await expect(types.definitions('t')).rejects.toMatchObject({ type: 'GatewayTimeout' });
    await expect(types.definitions('t', { waitForConnection: false })).rejects.toMatchObject({
      type: 'ServiceUnavailable',
    });
    // Started again for afterAll to stop.
    types.close();
    client.close();
    await start();
  });
});
