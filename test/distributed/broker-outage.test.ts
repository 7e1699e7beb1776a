/**
 * Distributed mode while RabbitMQ is away (issue 9, findings 12 and 16): every
 * service and the gateway as its own `node` process, their broker connections
 * through a TCP proxy that the test takes down and brings back (the real
 * broker, which other runs share, is never touched). The services start while
 * the broker is down and become ready when it is back; through a later outage
 * they stay ready, and writes and searches answer without waiting for the
 * broker. The waits for the broker are set far beyond the test's own bounds
 * (EVENT_FLUSH_TIMEOUT_MS, READ_YOUR_WRITES_TIMEOUT_MS), so a request that
 * waited for the broker would fail the test by its timeout. Runs the built
 * `dist/` entry points (`npm run build` first).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_AMQP_URL, isolatedVhost } from '../support/broker';
import { describeWithBroker } from '../support/broker-tests';
import { pollUntil } from '../support/poll';
import { assertFilesExist, baseEnv, freePorts, NodeProcess, ROOT, startNode } from '../support/processes';
import { TcpProxy } from '../support/tcp-proxy';

const BROKER_URL = process.env.AMQP_URL || DEFAULT_AMQP_URL;
const ADMIN_PASSWORD = `test-${randomUUID()}`;
const AUTH = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;

const SERVICES = ['identity', 'content', 'search', 'discussion', 'config'] as const;
type Service = (typeof SERVICES)[number];
/** The services that publish or consume events; the others' readiness does not depend on the broker. */
const BUS_USERS: Service[] = ['identity', 'content', 'search', 'discussion', 'config'];
const SCRIPTS: Record<Service | 'gateway', string> = {
  identity: join(ROOT, 'services/identity/dist/main.js'),
  content: join(ROOT, 'services/content/dist/main.js'),
  search: join(ROOT, 'services/search/dist/main.js'),
  discussion: join(ROOT, 'services/discussion/dist/main.js'),
  config: join(ROOT, 'services/config/dist/main.js'),
  gateway: join(ROOT, 'gateway/dist/main.js'),
};
const GRPC_ADDRESS_VARIABLE: Record<Service, string> = {
  identity: 'IDENTITY_GRPC_ADDRESS',
  content: 'CONTENT_GRPC_ADDRESS',
  search: 'SEARCH_GRPC_ADDRESS',
  discussion: 'DISCUSSION_GRPC_ADDRESS',
  config: 'CONFIG_GRPC_ADDRESS',
};

/** Far beyond every bound below: a request that waits this long for the broker fails the test. */
const WAIT_FOR_BROKER_MS = String(10 * 60_000);
const REQUEST_TIMEOUT_MS = 15_000;
const READY_TIMEOUT_MS = 30_000;
const CONVERGE_TIMEOUT_MS = 20_000;
/** Longer than the services' health check interval (2 s), so that /readyz reflects checks made during the outage. */
const READINESS_WATCH_MS = 5_000;
const STOP_TIMEOUT_MS = 8_000;

let vhost: ReturnType<typeof isolatedVhost> | undefined;
let broker: TcpProxy | undefined;
let dataDir = '';
let baseUrl = '';
const running = {} as Record<Service | 'gateway', NodeProcess>;

interface HttpResult {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

async function http(method: string, path: string, body?: unknown): Promise<HttpResult> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: {
      Authorization: AUTH,
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    // Not JSON: kept as text for the failure message.
  }
  return { status: response.status, body: parsed, text };
}

async function readiness(): Promise<{ status: number; services: Partial<Record<Service, boolean>> }> {
  const result = await http('GET', '/readyz');
  return { status: result.status, services: (result.body.services ?? {}) as Partial<Record<Service, boolean>> };
}

function exited(): string | undefined {
  const gone = Object.values(running).find((child) => !child.running);
  return gone && `${gone.name} exited: ${JSON.stringify(gone.exitStatus)}`;
}

/** Runs a test body; a failure carries every process's output. */
async function withLogs(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    if (error instanceof Error) {
      error.message += `\n\nProcess output:\n${Object.values(running)
        .map((child) => child.describe())
        .join('\n')}`;
    }
    throw error;
  }
}

describeWithBroker('distributed mode through a broker outage', () => {
  beforeAll(async () => {
    assertFilesExist(Object.values(SCRIPTS), 'Run `npm run build` at the workspace root first.');
    vhost = isolatedVhost(BROKER_URL);
    const through = await TcpProxy.forUrl(vhost.url);
    broker = through.proxy;
    // The broker is down before anything starts.
    await broker.down();

    dataDir = mkdtempSync(join(tmpdir(), 'cms-broker-outage-'));
    const [gatewayPort, filesPort, ...grpcPorts] = await freePorts(SERVICES.length + 2);
    const addresses = {} as Record<Service, string>;
    SERVICES.forEach((service, i) => (addresses[service] = `127.0.0.1:${grpcPorts[i]}`));
    baseUrl = `http://127.0.0.1:${gatewayPort}`;
    const common = {
      ...baseEnv(),
      SERVICE_AUTH_KEY: randomBytes(32).toString('base64url'),
      AMQP_URL: through.url,
      LOG_LEVEL: 'warn',
      SHUTDOWN_TIMEOUT_MS: '5000',
      EVENT_FLUSH_TIMEOUT_MS: WAIT_FOR_BROKER_MS,
      READ_YOUR_WRITES_TIMEOUT_MS: WAIT_FOR_BROKER_MS,
    };
    const envs = {} as Record<Service | 'gateway', NodeJS.ProcessEnv>;
    for (const service of SERVICES) {
      envs[service] = {
        ...common,
        [GRPC_ADDRESS_VARIABLE[service]]: addresses[service],
        DATA_DIR: join(dataDir, service),
      };
    }
    envs.identity.ADMIN_PASSWORD = ADMIN_PASSWORD;
    envs.search.CONTENT_ADDRESS = addresses.content;
    envs.content.IDENTITY_ADDRESS = addresses.identity;
    envs.content.CONFIG_ADDRESS = addresses.config;
    envs.content.DISCUSSION_ADDRESS = addresses.discussion;
    // content's file hop: a port of this test's own.
    envs.content.CONTENT_FILES_HTTP_ADDRESS = `127.0.0.1:${filesPort}`;
    envs.identity.CONFIG_ADDRESS = addresses.config;
    envs.config.CONTENT_ADDRESS = addresses.content;
    envs.config.IDENTITY_ADDRESS = addresses.identity;
    envs.discussion.CONTENT_ADDRESS = addresses.content;
    envs.discussion.IDENTITY_ADDRESS = addresses.identity;
    envs.discussion.CONFIG_ADDRESS = addresses.config;
    envs.gateway = {
      ...common,
      HOST: '127.0.0.1',
      PORT: String(gatewayPort),
      PUBLIC_URL: baseUrl,
      CONTENT_ADDRESS: addresses.content,
      IDENTITY_ADDRESS: addresses.identity,
      SEARCH_ADDRESS: addresses.search,
      DISCUSSION_ADDRESS: addresses.discussion,
      CONFIG_ADDRESS: addresses.config,
      CONTENT_FILES_ADDRESS: `127.0.0.1:${filesPort}`,
    };
    for (const name of [...SERVICES, 'gateway'] as const) running[name] = startNode(name, SCRIPTS[name], envs[name]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(Object.values(running).map((child) => child.stop(STOP_TIMEOUT_MS)));
    await broker?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    vhost?.dispose();
  }, 30_000);

  test('services started while the broker is down keep running, report not ready, and become ready when it is back (finding 12)', () =>
    withLogs(async () => {
      // Every service answers its health check (it started), and only those using the broker say not ready.
      const outcome = await pollUntil(
        async () => {
          const gone = exited();
          if (gone) return gone;
          const { status, services } = await readiness();
          const answered = SERVICES.filter((service) => services[service] === !BUS_USERS.includes(service));
          if (status === 503 && answered.length === SERVICES.length) return 'not ready';
          throw new Error(`/readyz ${status} ${JSON.stringify(services)}`);
        },
        READY_TIMEOUT_MS,
        { description: 'every service started, those using the broker not ready', intervalMs: 100 },
      );
      expect(outcome).toBe('not ready');

      await broker!.up();
      await pollUntil(
        async () => {
          const gone = exited();
          if (gone) return gone;
          const { status, services } = await readiness();
          if (status === 200) return 'ready';
          throw new Error(`/readyz ${status} ${JSON.stringify(services)}`);
        },
        READY_TIMEOUT_MS,
        { description: 'every service ready once the broker is back', intervalMs: 100 },
      ).then((state) => expect(state).toBe('ready'));
    }));

  test('through an outage the services stay ready, and writes and searches answer without waiting for the broker (finding 16)', () =>
    withLogs(async () => {
      const word = `w${randomUUID().replace(/-/g, '')}`;
      const outageStart = Object.fromEntries(BUS_USERS.map((name) => [name, running[name].output.length]));
      await broker!.down();
      await pollUntil(
        () =>
          BUS_USERS.every((name) =>
            running[name].output.slice(outageStart[name]).includes('Event bus connection lost'),
          ),
        READY_TIMEOUT_MS,
        { description: 'every service to notice the outage' },
      );

      const created = await http('POST', '/', { '@type': 'Document', title: `Outage ${word}` });
      expect(created.status).toBe(201);
      const user = await http('POST', '/@users', { username: `u${word}`, password: `${word}-secret` });
      expect(user.status).toBe(201);
      // A removal publishes identity.user.removed; the answer does not wait for its confirm.
      expect((await http('DELETE', `/@users/u${word}`)).status).toBe(204);
      const search = await http('GET', `/@search?SearchableText=${word}`);
      expect(search.status).toBe(200);

      // Ready throughout: sampled for longer than a health check interval.
      const until = Date.now() + READINESS_WATCH_MS;
      while (Date.now() < until) {
        const { status, services } = await readiness();
        expect({ status, services }).toEqual({ status: 200, services: expect.any(Object) });
        await new Promise((resolve) => setTimeout(resolve, 200));
      }

      await broker!.up();
      // The outbox publishes the write's event after the reconnection, and search indexes it.
      const found = await pollUntil(
        async () => {
          const result = await http('GET', `/@search?SearchableText=${word}`);
          const total = (result.body as { items_total?: number }).items_total;
          if (total === 1) return result.body;
          throw new Error(`items_total ${total}`);
        },
        CONVERGE_TIMEOUT_MS,
        { description: 'the document written during the outage in the search results', intervalMs: 100 },
      );
      expect((found.items as { '@id': string }[]).map((item) => item['@id'])).toEqual([created.body['@id']]);
    }));
});
