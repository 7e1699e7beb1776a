/**
 * Distributed mode end to end: every service and the gateway as its own
 * `node` process, talking gRPC to each other and RabbitMQ for events. Runs the
 * built `dist/` entry points (CI builds first; this file does not).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_AMQP_URL, deleteBrokerObjects, isolatedVhost } from '../support/broker';
import { pollUntil } from '../support/poll';
import { assertFilesExist, baseEnv, freePorts, NodeProcess, ROOT, runNode, startNode } from '../support/processes';
import { describeWithBroker } from '../support/broker-tests';

const BROKER_URL = process.env.AMQP_URL || DEFAULT_AMQP_URL;
/** A virtual host of this run's own (set in beforeAll), so that runs beside each other never meet. */
let vhost: ReturnType<typeof isolatedVhost> | undefined;
let AMQP_URL = BROKER_URL;
const ADMIN_PASSWORD = `test-${randomUUID()}`;
const AUTH = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
/** What the processes declare: each consumer its own group's queues (proto/EVENTS.md), every one the exchanges. */
const BROKER_OBJECTS = {
  queues: ['cms.search', 'cms.search.dead', 'cms.content', 'cms.content.dead'],
  exchanges: ['cms.events', 'cms.events.dlx'],
};

const SERVICES = ['identity', 'content', 'search', 'discussion', 'config'] as const;
type Service = (typeof SERVICES)[number];
const SCRIPTS: Record<Service | 'gateway' | 'reindex', string> = {
  identity: join(ROOT, 'services/identity/dist/main.js'),
  content: join(ROOT, 'services/content/dist/main.js'),
  search: join(ROOT, 'services/search/dist/main.js'),
  discussion: join(ROOT, 'services/discussion/dist/main.js'),
  config: join(ROOT, 'services/config/dist/main.js'),
  gateway: join(ROOT, 'gateway/dist/main.js'),
  reindex: join(ROOT, 'services/search/dist/reindex.js'),
};
const GRPC_ADDRESS_VARIABLE: Record<Service, string> = {
  identity: 'IDENTITY_GRPC_ADDRESS',
  content: 'CONTENT_GRPC_ADDRESS',
  search: 'SEARCH_GRPC_ADDRESS',
  discussion: 'DISCUSSION_GRPC_ADDRESS',
  config: 'CONFIG_GRPC_ADDRESS',
};

const READY_TIMEOUT_MS = 30_000;
const CONVERGE_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 8_000;

let dataDir = '';
let baseUrl = '';
const addresses = {} as Record<Service, string>;
const envs = {} as Record<Service | 'gateway', NodeJS.ProcessEnv>;
const running = {} as Record<Service | 'gateway', NodeProcess>;
/** Every process started, the SIGKILLed search included, for failure messages. */
const started: NodeProcess[] = [];
let folderUrl = '';
let folderWord = '';
/** Content objects created through the gateway and not deleted (the site root excluded). */
let existing = 0;

function start(name: Service | 'gateway'): NodeProcess {
  const child = startNode(name, SCRIPTS[name], envs[name]);
  started.push(child);
  running[name] = child;
  return child;
}

function processLogs(): string {
  return started.map((child) => child.describe()).join('\n');
}

/** Runs a test body; a failure carries every process's output. */
async function withLogs(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    if (error instanceof Error) {
      const logs = `\n\nProcess output:\n${processLogs()}`;
      error.message += logs;
      if (error.stack)
        error.stack =
          error.message +
          '\n' +
          error.stack
            .split('\n')
            .filter((line) => /^\s+at /.test(line))
            .join('\n');
    }
    throw error;
  }
}

interface HttpResult {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

async function http(method: string, url: string, body?: unknown): Promise<HttpResult> {
  const response = await fetch(url.startsWith('http') ? url : baseUrl + url, {
    method,
    headers: {
      Authorization: AUTH,
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
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

/** Creates a Document in the test folder; a write must succeed whether or not search is up. */
async function createDocument(title: string): Promise<string> {
  const result = await http('POST', folderUrl, { '@type': 'Document', title });
  if (result.status !== 201) throw new Error(`POST ${folderUrl} "${title}" answered ${result.status}: ${result.text}`);
  existing++;
  return result.body['@id'] as string;
}

/** Runs `task` for each item, at most `limit` at a time. */
async function inParallel<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

interface SearchResult {
  items_total: number;
  items: { '@id': string }[];
}

async function search(word: string): Promise<SearchResult> {
  const result = await http('GET', `/@search?SearchableText=${encodeURIComponent(word)}&b_size=1000`);
  if (result.status !== 200) throw new Error(`@search answered ${result.status}: ${result.text}`);
  return result.body as unknown as SearchResult;
}

/** Polls @search until `accept` holds; the last answer (or error) is in the timeout message. */
function searchUntil(
  word: string,
  description: string,
  accept: (result: SearchResult) => boolean,
): Promise<SearchResult> {
  return pollUntil(
    async () => {
      const result = await search(word);
      if (accept(result)) return result;
      throw new Error(`items_total ${result.items_total}`);
    },
    CONVERGE_TIMEOUT_MS,
    { description, intervalMs: 100 },
  );
}

function uniqueWord(): string {
  return `w${randomUUID().replace(/-/g, '')}`;
}

/** Waits until /readyz reports every service ready but those in `notStarted`, and no process has exited. */
async function untilReady(notStarted: Service[]): Promise<void> {
  const outcome = await pollUntil(
    async () => {
      const dead = Object.values(running).find((child) => !child.running);
      if (dead) return `${dead.name} exited during start-up`;
      const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(3000) });
      const text = await response.text();
      const services = (JSON.parse(text) as { services?: Record<string, boolean> }).services ?? {};
      const waitingFor = SERVICES.filter((service) => !notStarted.includes(service) && !services[service]);
      if (waitingFor.length === 0 && (notStarted.length > 0 || response.status === 200)) return 'ready';
      throw new Error(`/readyz ${response.status} ${text}`);
    },
    READY_TIMEOUT_MS,
    { description: `every service but ${notStarted.join(', ') || 'none'} to be ready`, intervalMs: 100 },
  );
  if (outcome !== 'ready') throw new Error(outcome);
}

describeWithBroker('distributed mode over RabbitMQ', () => {
  beforeAll(async () => {
    assertFilesExist(
      Object.values(SCRIPTS),
      'The distributed test runs the built services: run `npm run build` at the workspace root first.',
    );
    vhost = isolatedVhost(BROKER_URL);
    AMQP_URL = vhost.url;
    await deleteBrokerObjects(AMQP_URL, BROKER_OBJECTS);

    dataDir = mkdtempSync(join(tmpdir(), 'cms-distributed-'));
    const [gatewayPort, ...grpcPorts] = await freePorts(SERVICES.length + 1);
    SERVICES.forEach((service, i) => (addresses[service] = `127.0.0.1:${grpcPorts[i]}`));
    baseUrl = `http://127.0.0.1:${gatewayPort}`;

    const common = { ...baseEnv(), AMQP_URL, LOG_LEVEL: 'warn', SHUTDOWN_TIMEOUT_MS: '5000' };
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
    envs.identity.CONFIG_ADDRESS = addresses.config;
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
    };

    // Search starts last, on a broker without its queue: content's first events (the site root, the test folder)
    // are unroutable until search has declared it, and reach it through content's outbox (the limit in EVENTS.md).
    for (const service of SERVICES) if (service !== 'search') start(service);
    start('gateway');

    await withLogs(async () => {
      await untilReady(['search']);
      folderWord = uniqueWord();
      const folder = await http('POST', '/', { '@type': 'Folder', title: `Distributed ${folderWord}` });
      if (folder.status !== 201) throw new Error(`Creating the test folder answered ${folder.status}: ${folder.text}`);
      folderUrl = folder.body['@id'] as string;
      existing++;

      start('search');
      await untilReady([]);
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(Object.values(running).map((child) => child.stop(STOP_TIMEOUT_MS)));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    // Best effort: the next run deletes them before it starts anyway.
    await deleteBrokerObjects(AMQP_URL, BROKER_OBJECTS).catch((error: unknown) =>
      console.warn(`Could not delete the test's RabbitMQ queues and exchanges: ${String(error)}`),
    );
    vhost?.dispose();
  }, 30_000);

  test('a write made before search first declared its queue reaches search through the outbox', () =>
    withLogs(async () => {
      // Refused by the broker at first: no queue matched yet.
      expect(running.content.output).toMatch(/content\.added is unroutable/);
      const found = await searchUntil(folderWord, 'the test folder in the search results', (r) => r.items_total === 1);
      expect(found.items.map((item) => item['@id'])).toEqual([folderUrl]);
    }));

  test('a created document is found by the very next search (read-your-writes)', () =>
    withLogs(async () => {
      const word = uniqueWord();
      const id = await createDocument(`Read your writes ${word}`);

      const result = await search(word);

      expect(result.items_total).toBe(1);
      expect(result.items.map((item) => item['@id'])).toEqual([id]);
    }));

  test(
    'search killed with SIGKILL and restarted converges on every write made meanwhile',
    () =>
      withLogs(async () => {
        const word = uniqueWord();
        const killed = await running.search.kill();
        expect(killed.signal).toBe('SIGKILL');
        const ready = await http('GET', '/readyz');
        expect(ready.status).toBe(503);
        expect(ready.body.services).toMatchObject({ search: false });

        // Writes while search is down: the events wait in its durable queue.
        const whileDown = await inParallel(
          Array.from({ length: 30 }, (_, i) => `Down ${i} ${word}`),
          5,
          createDocument,
        );
        // And more while it starts again.
        start('search');
        const whileRestarting = await inParallel(
          Array.from({ length: 10 }, (_, i) => `Restarting ${i} ${word}`),
          5,
          createDocument,
        );
        const ids = [...whileDown, ...whileRestarting];

        const converged = await searchUntil(
          word,
          `all ${ids.length} documents in the search results`,
          (result) => result.items_total === ids.length,
        );
        expect(converged.items.map((item) => item['@id']).sort()).toEqual([...ids].sort());

        const deleted = ids.slice(0, 5);
        for (const id of deleted) {
          const result = await http('DELETE', id);
          expect(result.status).toBe(204);
          existing--;
        }
        const remaining = ids.slice(5);
        const afterDelete = await searchUntil(
          word,
          `the ${deleted.length} deleted documents to leave the search results`,
          (result) => result.items_total === remaining.length,
        );
        expect(afterDelete.items.map((item) => item['@id']).sort()).toEqual([...remaining].sort());
      }),
    60_000,
  );

  test('reindex.js rebuilds the catalog of the running search service', () =>
    withLogs(async () => {
      const result = await runNode(
        'reindex',
        SCRIPTS.reindex,
        { ...baseEnv(), SEARCH_ADDRESS: addresses.search },
        20_000,
      );
      const summary = /reindexed (\d+) objects/.exec(result.output);
      if (result.code !== 0 || !summary) {
        throw new Error(`reindex exited with code ${result.code} (signal ${result.signal}):\n${result.output}`);
      }
      expect(Number(summary[1])).toBeGreaterThanOrEqual(existing);
    }));
});
