/**
 * The real gateway in front of a stand-in identity (counting its Authenticate
 * calls, pushing invalidations at will) and a stand-in content service: the
 * credential cache is used only while the invalidation stream is open, drops
 * what identity says, and @login / @logout get the headers they need.
 */
import type * as grpc from '@grpc/grpc-js';
import {
  AppError,
  createLogger,
  loadConfig,
  protos,
  startGrpcServer,
  unary,
  unauthorized,
  type AuthenticateRequest__Output,
  type HttpRequest__Output,
  type RunningGrpcServer,
} from '@cms/shared';
import { pollUntil } from '../../test/support/poll';
import { gatewayConfigSchema, startGateway, type RunningGateway } from '../src';

const MAX = 4 * 1024 * 1024;
const logger = createLogger('gateway', 'silent');
const UNREACHABLE = '127.0.0.1:1';

/** A bounded wait for something the gateway does on its own (reconnecting, applying a push). */
const until = <T>(check: () => Promise<T | undefined | false> | T | undefined | false, description: string) =>
  pollUntil(check, 5000, { intervalMs: 5, description });

function jwt(jti: string): string {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'HS256' })}.${part({ sub: 'jane', jti, exp: Math.floor(Date.now() / 1000) + 600 })}.sig`;
}

type WatchCall = grpc.ServerWritableStream<unknown, unknown>;

describe('gateway credential cache against a stand-in identity', () => {
  let identity: RunningGrpcServer;
  let content: RunningGrpcServer;
  let authenticateCalls: AuthenticateRequest__Output[];
  let revoked: Set<string>;
  let watchers: Set<WatchCall>;
  /** Streams identity holds without answering (no response headers): the gateway cannot trust its cache. */
  let held: Set<WatchCall>;
  let holdWatches: boolean;
  let watchCalls: number;
  let identityRequests: HttpRequest__Output[];
  let contentRequests: HttpRequest__Output[];

  beforeAll(async () => {
    const p = protos();
    identity = await startGrpcServer({
      address: '127.0.0.1:0',
      services: [
        {
          name: 'cms.identity.v1.IdentityService',
          definition: p.identity.IdentityService.service,
          implementation: {
            Authenticate: unary(logger, async (request: AuthenticateRequest__Output) => {
              authenticateCalls.push(request);
              if (request.basic?.login === 'locked') {
                throw new AppError('TooManyRequests', 'locked', undefined, undefined, { 'Retry-After': '42' });
              }
              const token = request.bearer_token ?? '';
              const jti = token ? JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).jti : '';
              if (!token || revoked.has(jti)) throw unauthorized('Invalid or expired token');
              return { id: 'jane', roles: ['Member'], groups: [], fullname: 'Jane' };
            }),
            Handle: unary(logger, async (request: HttpRequest__Output) => {
              identityRequests.push(request);
              return { status: 200, headers: {}, body: Buffer.from('{}') };
            }),
            WatchInvalidations: (call: WatchCall) => {
              watchCalls++;
              const drop = () => {
                watchers.delete(call);
                held.delete(call);
              };
              if (holdWatches) held.add(call);
              else {
                call.sendMetadata(call.metadata.clone());
                watchers.add(call);
              }
              call.on('cancelled', drop);
              call.on('close', drop);
              call.on('error', drop);
            },
          },
        },
      ],
      healthCheck: async () => {},
      maxMessageBytes: MAX,
      logger,
    });
    content = await startGrpcServer({
      address: '127.0.0.1:0',
      services: [
        {
          name: 'cms.content.v1.ContentService',
          definition: p.content.ContentService.service,
          implementation: {
            Handle: unary(logger, async (request: HttpRequest__Output) => {
              contentRequests.push(request);
              const body = { principal: request.principal?.id ?? null };
              return { status: 200, headers: {}, body: Buffer.from(JSON.stringify(body)) };
            }),
          },
        },
      ],
      healthCheck: async () => {},
      maxMessageBytes: MAX,
      logger,
    });
  });

  afterAll(async () => {
    for (const call of watchers) call.end();
    await identity.stop(1000);
    await content.stop(1000);
  });

  beforeEach(() => {
    authenticateCalls = [];
    revoked = new Set();
    identityRequests = [];
    contentRequests = [];
    watchers ??= new Set();
    held = new Set();
    holdWatches = false;
    watchCalls = 0;
  });

  async function gatewayWith(env: Record<string, string> = {}): Promise<RunningGateway> {
    const config = loadConfig(gatewayConfigSchema, { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env });
    return startGateway(
      config,
      {
        content: content.address,
        identity: identity.address,
        search: UNREACHABLE,
        discussion: UNREACHABLE,
        config: UNREACHABLE,
      },
      logger,
    );
  }

  const get = (gateway: RunningGateway, authorization?: string) =>
    fetch(`http://127.0.0.1:${gateway.port}/doc`, { headers: authorization ? { Authorization: authorization } : {} });

  /**
   * Waits until the gateway answers from its cache, which it does only while
   * its invalidation stream is open: a second request with a probe token
   * costs no call to identity. The calls of the probe are then forgotten.
   */
  const cacheInUse = async (gateway: RunningGateway) => {
    const probe = `Bearer ${jwt('probe')}`;
    await until(async () => {
      await get(gateway, probe);
      const calls = authenticateCalls.length;
      await get(gateway, probe);
      return authenticateCalls.length === calls;
    }, 'the gateway to use its credential cache');
    authenticateCalls = [];
  };

  /** Requests until one asks identity (the gateway has applied what it was sent); that request's response. */
  const nextAsking = (gateway: RunningGateway, authorization: string) =>
    until(async () => {
      const calls = authenticateCalls.length;
      const response = await get(gateway, authorization);
      return authenticateCalls.length > calls && response;
    }, 'a request that asks identity');

  it('asks identity once per credential while the stream is open, and again after an invalidation', async () => {
    const gateway = await gatewayWith();
    try {
      await cacheInUse(gateway);
      const token = jwt('t1');
      for (let i = 0; i < 5; i++) {
        const response = await get(gateway, `Bearer ${token}`);
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ principal: 'jane' });
      }
      expect(authenticateCalls).toHaveLength(1);

      // Logged out on identity: once the push has arrived, the request asks again, and is refused.
      revoked.add('t1');
      for (const call of watchers) call.write({ token_id: 't1' });
      const refused = await nextAsking(gateway, `Bearer ${token}`);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(authenticateCalls).toHaveLength(2);

      // A user invalidation drops that user's entries; `all` drops everything.
      const other = `Bearer ${jwt('t2')}`;
      await get(gateway, other);
      await get(gateway, other);
      expect(authenticateCalls).toHaveLength(3);
      for (const call of watchers) call.write({ user_id: 'jane' });
      expect((await nextAsking(gateway, other)).status).toBe(200);
      expect(authenticateCalls).toHaveLength(4);
      await get(gateway, other);
      expect(authenticateCalls).toHaveLength(4);
      for (const call of watchers) call.write({ all: true });
      expect((await nextAsking(gateway, other)).status).toBe(200);
      expect(authenticateCalls).toHaveLength(5);
    } finally {
      await gateway.stop();
    }
  });

  it('asks identity on every request while the stream is down, and uses the cache again once it is back', async () => {
    const gateway = await gatewayWith();
    try {
      await cacheInUse(gateway);
      const token = `Bearer ${jwt('t3')}`;
      await get(gateway, token);
      await get(gateway, token);
      expect(authenticateCalls).toHaveLength(1);

      // The stream ends, and identity answers the gateway's reconnections with no headers (as while it is down).
      holdWatches = true;
      for (const call of watchers) call.end();
      await nextAsking(gateway, token);
      const before = authenticateCalls.length;
      for (let i = 1; i <= 3; i++) {
        expect((await get(gateway, token)).status).toBe(200);
        expect(authenticateCalls).toHaveLength(before + i);
      }

      // Identity answers again: cached again.
      holdWatches = false;
      for (const call of held) {
        held.delete(call);
        call.sendMetadata(call.metadata.clone());
        watchers.add(call);
      }
      await cacheInUse(gateway);
      for (let i = 0; i < 3; i++) await get(gateway, token);
      expect(authenticateCalls).toHaveLength(1);
    } finally {
      await gateway.stop();
    }
    await until(() => watchers.size === 0 && held.size === 0, 'the gateway to close its stream');
  });

  it('opens no stream and caches nothing with AUTH_CACHE_TTL_MS=0', async () => {
    const gateway = await gatewayWith({ AUTH_CACHE_TTL_MS: '0' });
    try {
      for (let i = 0; i < 3; i++) await get(gateway, `Bearer ${jwt('t4')}`);
      expect(authenticateCalls).toHaveLength(3);
      // A stream would have been opened at start, on the same connection as these calls and before them.
      expect(watchCalls).toBe(0);
    } finally {
      await gateway.stop();
    }
  });

  it('does not authenticate POST /@login, and hands the Authorization header to @login-renew and @logout only', async () => {
    const gateway = await gatewayWith();
    const post = (path: string, authorization: string) =>
      fetch(`http://127.0.0.1:${gateway.port}${path}`, {
        method: 'POST',
        headers: { Authorization: authorization, 'Content-Type': 'application/json' },
        body: '{"login": "jane", "password": "x"}',
      });
    try {
      revoked.add('stale');
      expect((await post('/@login', `Bearer ${jwt('stale')}`)).status).toBe(200);
      expect(authenticateCalls).toHaveLength(0);
      expect(identityRequests[0]).toMatchObject({ endpoint: 'login', principal: null });
      expect(identityRequests[0].headers).not.toHaveProperty('authorization');

      const token = `Bearer ${jwt('t5')}`;
      expect((await post('/@logout', token)).status).toBe(200);
      expect(identityRequests[1].headers.authorization).toBe(token);
      expect(identityRequests[1].principal).toMatchObject({ id: 'jane' });
      expect((await post('/@login-renew', token)).status).toBe(200);
      expect(identityRequests[2].headers.authorization).toBe(token);
      // A stale token elsewhere is refused.
      expect((await post('/@logout', `Bearer ${jwt('stale')}`)).status).toBe(401);

      await get(gateway, token);
      expect(contentRequests.at(-1)?.headers).not.toHaveProperty('authorization');
    } finally {
      await gateway.stop();
    }
  });

  it('passes a 429 from identity through with its Retry-After, and challenges a refused Basic login', async () => {
    const gateway = await gatewayWith();
    try {
      const locked = await get(gateway, 'Basic ' + Buffer.from('locked:x').toString('base64'));
      expect(locked.status).toBe(429);
      expect(locked.headers.get('retry-after')).toBe('42');
      expect(await locked.json()).toEqual({ type: 'TooManyRequests', message: 'locked' });
      const wrong = await get(gateway, 'Basic ' + Buffer.from('jane:x').toString('base64'));
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    } finally {
      await gateway.stop();
    }
  });
});
