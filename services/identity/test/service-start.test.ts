/**
 * The identity service as it starts: the administrator from ADMIN_PASSWORD on
 * the first start only (with a warning when it is given again), and the login
 * throttle wired to the LOGIN_* settings, observed through a recording sleep,
 * and told the client's address by the gateway in the call's metadata.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import {
  AppError,
  callUnary,
  createClient,
  loadConfig,
  protos,
  type DocumentStore,
  type EventBus,
  type HttpResponse__Output,
  type IdentityServiceClient,
  type Principal__Output,
  type RunningService,
} from '@cms/shared';
import { createInProcessBus, openEmbeddedStore } from '@cms/shared/adapters';
import { identityConfigSchema } from '../src/config';
import { startIdentityService, type IdentityServiceOptions } from '../src/service';

const MAX = 4 * 1024 * 1024;

describe('identity service start', () => {
  let dataDir: string;
  let store: DocumentStore | undefined;
  let bus: EventBus | undefined;
  let service: RunningService | undefined;
  let client: IdentityServiceClient | undefined;
  let logged: { level: number; msg: string }[];

  /** Starts identity on the store under `dataDir`, with `env` as its environment. */
  async function start(env: NodeJS.ProcessEnv, options: IdentityServiceOptions = {}) {
    const config = loadConfig(identityConfigSchema, {
      IDENTITY_GRPC_ADDRESS: '127.0.0.1:0',
      // Nothing listens there: the registry is only asked for when a user is created.
      CONFIG_ADDRESS: '127.0.0.1:1',
      ...env,
    });
    logged = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logged.push(JSON.parse(line));
        done();
      },
    });
    const logger = pino({ level: 'info' }, sink);
    store = await openEmbeddedStore(dataDir);
    // Identity consumes nothing: as in its own process, its bus declares no group.
    bus = createInProcessBus({ topology: [], logger });
    service = await startIdentityService({ config, logger, store, bus }, options);
    client = createClient(protos().identity.IdentityService, service.address, MAX);
  }

  async function stop() {
    client?.close();
    await service?.stop();
    await bus?.close();
    await store?.close();
    client = service = bus = store = undefined;
  }

  const basic = (login: string, password: string, clientAddress?: string) =>
    callUnary<Principal__Output>((md, o, cb) => client!.Authenticate({ basic: { login, password } }, md, o, cb), {
      requestId: 'test',
      timeoutMs: 5000,
      clientAddress,
    });
  /** POST /@login as the gateway passes it on, `headers` as if a client had sent them; its status, or its refusal. */
  const tokenLogin = (login: string, password: string, clientAddress?: string, headers: Record<string, string> = {}) =>
    callUnary<HttpResponse__Output>(
      (md, o, cb) =>
        client!.Handle(
          {
            method: 'POST',
            context_path: [],
            endpoint: 'login',
            sub_path: [],
            query: [],
            body: Buffer.from(JSON.stringify({ login, password })),
            principal: null,
            public_url: 'http://localhost:8080',
            request_id: 'test',
            headers,
          },
          md,
          o,
          cb,
        ),
      { requestId: 'test', timeoutMs: 5000, clientAddress },
    ).then(
      (response) => ({ status: response.status, error: undefined }),
      (error: AppError) => ({ status: error.httpStatus, error }),
    );
  const refusal = (login: string, password: string, clientAddress?: string) =>
    basic(login, password, clientAddress).then(
      () => {
        throw new Error('expected a refusal');
      },
      (error: AppError) => error,
    );
  const warnings = () => logged.filter((entry) => entry.level === 40).map((entry) => entry.msg);

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'identity-start-'));
  });
  afterEach(async () => {
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates the administrator from ADMIN_PASSWORD on the first start, and ignores it later with a warning', async () => {
    await start({ ADMIN_PASSWORD: 'first-password' });
    expect(warnings()).toEqual([]);
    expect(await basic('admin', 'first-password')).toMatchObject({ id: 'admin', roles: ['Manager'] });
    await stop();

    await start({ ADMIN_PASSWORD: 'second-password' });
    expect(warnings()).toEqual([
      expect.stringMatching(/^ADMIN_PASSWORD is ignored: the administrator "admin" already/),
    ]);
    expect(await basic('admin', 'first-password')).toMatchObject({ id: 'admin' });
    expect((await refusal('admin', 'second-password')).type).toBe('Unauthorized');
    await stop();

    // Without ADMIN_PASSWORD there is nothing to warn about once the administrator exists.
    await start({});
    expect(warnings()).toEqual([]);
  });

  it('warns that the administrator gets the password "admin" when none is given', async () => {
    await start({});
    expect(warnings()).toEqual([expect.stringMatching(/^No ADMIN_PASSWORD given/)]);
    expect(await basic('admin', 'admin')).toMatchObject({ id: 'admin' });
  });

  it('throttles failed logins with the LOGIN_* settings: the delays asked for, then the lock', async () => {
    const slept: number[] = [];
    await start(
      {
        LOGIN_FAILURES_BEFORE_DELAY: '2',
        LOGIN_FAILURES_BEFORE_LOCK: '5',
        LOGIN_LOCK_SECONDS: '120',
        LOGIN_DELAY_MS: '300',
        LOGIN_DELAY_MAX_MS: '500',
      },
      { throttleClock: { sleep: async (ms) => void slept.push(ms) } },
    );
    for (let i = 0; i < 5; i++) expect((await refusal('admin', `guess-${i}`)).type).toBe('Unauthorized');
    expect(slept).toEqual([300, 500, 500]);
    const locked = await refusal('admin', 'admin');
    expect(locked.type).toBe('TooManyRequests');
    expect(locked.headers).toEqual({ 'Retry-After': '120' });
    // A refused attempt waits for nothing.
    expect(slept).toEqual([300, 500, 500]);
  });

  it('takes the client address from the call metadata, for Authenticate and POST @login alike', async () => {
    await start({ LOGIN_FAILURES_BEFORE_LOCK: '3', LOGIN_DELAY_MS: '0', LOGIN_CLIENT_FAILURES_BEFORE_LOCK: '4' });
    for (let i = 0; i < 3; i++)
      expect((await refusal('admin', `guess-${i}`, '198.51.100.1')).type).toBe('Unauthorized');
    // The account is locked for the address that failed, through either way in ...
    expect((await refusal('admin', 'admin', '198.51.100.1')).type).toBe('TooManyRequests');
    expect((await tokenLogin('admin', 'admin', '198.51.100.1')).status).toBe(429);
    // ... however the request names itself: a client address among the request's headers is not believed.
    const claimed = await tokenLogin('admin', 'admin', '198.51.100.1', { 'x-client-address': '192.0.2.10' });
    expect(claimed.status).toBe(429);
    // Not for the real user elsewhere.
    expect((await tokenLogin('admin', 'admin', '192.0.2.10')).status).toBe(200);
    expect(await basic('admin', 'admin', '192.0.2.11')).toMatchObject({ id: 'admin' });
    // The fourth failure from that address, on any name, locks the address.
    expect((await tokenLogin('someone-else', 'guess', '198.51.100.1')).status).toBe(401);
    const locked = await refusal('someone-else', 'x', '198.51.100.1');
    expect(locked.type).toBe('TooManyRequests');
    expect(locked.message).toMatch(/from this address/);
  });

  it('answers POST @login with 400 for an over-long login name or password, without echoing it', async () => {
    await start({});
    for (const [login, password] of [
      ['x'.repeat(1_000_000), 'admin'],
      ['admin', 'p'.repeat(1001)],
    ]) {
      const { status, error } = await tokenLogin(login, password, '192.0.2.10');
      expect(status).toBe(400);
      const body = JSON.stringify(error!.toBody());
      expect(error!.type).toBe('BadRequest');
      expect(body.length).toBeLessThan(400);
      expect(body).not.toMatch(/xxxx|pppp/);
    }
    expect(await store!.collection('login_attempts').countDocuments({})).toBe(0);
  });
});
