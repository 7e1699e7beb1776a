/**
 * The config service over gRPC, on an embedded store: `Handle` as the gateway
 * calls it (with principals the gateway cannot yet produce, such as a Member)
 * and `GetRecords` as other services call it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  callUnary,
  createClient,
  createLogger,
  protos,
  type ConfigServiceClient,
  type DocumentStore,
  type HttpRequest,
  type HttpResponse__Output,
  type Principal,
  type RunningService,
} from '@cms/shared';
import { createInProcessBus, openEmbeddedStore } from '@cms/shared/adapters';
import { configConfigSchema, startConfigService } from '../src';
import { CONFIG_CONSUMER_GROUPS } from '../src/events/rules-consumer';

const GLOBALLY = 'cms.app.discussion.interfaces.IDiscussionSettings.globally_enabled';
const MANAGER: Principal = { id: 'admin', roles: ['Manager'], groups: [], fullname: '' };
const SITE_ADMIN: Principal = { id: 'siteadmin', roles: ['Site Administrator'], groups: [], fullname: '' };
const MEMBER: Principal = { id: 'jane', roles: ['Member'], groups: [], fullname: '' };

describe('config service over gRPC', () => {
  let dataDir: string;
  let store: DocumentStore;
  let service: RunningService;
  let client: ConfigServiceClient;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'config-service-'));
    store = await openEmbeddedStore(dataDir);
    const config = configConfigSchema.parse({ CONFIG_GRPC_ADDRESS: '127.0.0.1:0' });
    // The rules consumer subscribes; nothing is published here.
    const bus = createInProcessBus({ topology: CONFIG_CONSUMER_GROUPS, logger: createLogger('bus', 'silent') });
    service = await startConfigService({ config, logger: createLogger('config', 'silent'), store, bus });
    client = createClient(protos().config.ConfigService, service.address, config.MAX_MESSAGE_BYTES);
  });

  afterAll(async () => {
    client.close();
    await service.stop();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = <T>(invoke: Parameters<typeof callUnary<T>>[0]) =>
    callUnary<T>(invoke, { requestId: 't', timeoutMs: 5000 });

  function handle(method: string, principal: Principal | null, body?: unknown, subPath: string[] = []) {
    const request: HttpRequest = {
      method,
      context_path: [],
      endpoint: 'registry',
      sub_path: subPath,
      query: [],
      body: body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body)),
      principal: principal ?? undefined,
      public_url: 'http://localhost:8080',
      request_id: 't',
      headers: {},
    };
    return call<HttpResponse__Output>((md, o, cb) => client.Handle(request, md, o, cb));
  }

  const getRecords = (names: string[]) =>
    call<{ values_json: Record<string, string> }>((md, o, cb) => client.GetRecords({ names }, md, o, cb));

  it('lets a Manager and a Site Administrator read and write', async () => {
    expect((await handle('GET', MANAGER, undefined, [GLOBALLY])).status).toBe(200);
    expect((await handle('PATCH', SITE_ADMIN, { [GLOBALLY]: false })).status).toBe(204);
  });

  it('refuses an authenticated caller without cms.ManagePortal with 403', async () => {
    await expect(handle('GET', MEMBER)).rejects.toMatchObject({ type: 'Forbidden' });
    await expect(handle('GET', MEMBER, undefined, [GLOBALLY])).rejects.toMatchObject({ type: 'Forbidden' });
    await expect(handle('PATCH', MEMBER, { [GLOBALLY]: true })).rejects.toMatchObject({ type: 'Forbidden' });
    expect(JSON.parse((await getRecords([GLOBALLY])).values_json[GLOBALLY])).toBe(false);
  });

  it('asks an anonymous caller to log in', async () => {
    await expect(handle('GET', null)).rejects.toMatchObject({
      type: 'Unauthorized',
      headers: { 'WWW-Authenticate': expect.stringMatching(/^Basic /) },
    });
  });

  it('answers GetRecords with JSON values, set or initial', async () => {
    const names = [GLOBALLY, 'cms.allowed_sizes', 'cms.app.discussion.interfaces.IDiscussionSettings.moderator_email'];
    expect((await handle('PATCH', MANAGER, { [GLOBALLY]: true })).status).toBe(204);
    const { values_json } = await getRecords(names);
    expect(Object.keys(values_json).sort()).toEqual([...names].sort());
    expect(JSON.parse(values_json[GLOBALLY])).toBe(true);
    expect(JSON.parse(values_json['cms.allowed_sizes'])).toContain('thumb 128:128');
    expect(JSON.parse(values_json['cms.app.discussion.interfaces.IDiscussionSettings.moderator_email'])).toBeNull();
    expect(await store.collection('registry').findOne({ _id: GLOBALLY })).toMatchObject({ value: true });
  });

  it('answers GetRecords for an unknown name with NOT_FOUND', async () => {
    await expect(getRecords([GLOBALLY, 'no.such.record'])).rejects.toMatchObject({
      type: 'NotFound',
      message: expect.stringContaining('no.such.record'),
    });
  });

  it('answers GetRecords without names with no values', async () => {
    expect((await getRecords([])).values_json).toEqual({});
  });
});
