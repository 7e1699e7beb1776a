/**
 * The distributed mode as separate `node` processes (every service and the gateway) over RabbitMQ, on a virtual
 * host of the run's own: the harness of test/distributed and test/faults. Runs the built `dist/` entry points.
 *
 * With `proxied`, each service reaches the broker through a TcpProxy of its own, so a test can cut or take away
 * one service's broker connection (or all of them) without touching the broker other runs share.
 *
 * With `store: 'postgres'`, every service keeps its data in one PostgreSQL database of the suite's own (each in its
 * schema `cms_<service>`), made at prepare on the server of `PG_URL` and dropped at dispose; a replica suite
 * (`replicaOf`) shares it, so its services are replicas on one shared store. With `balanced`, the clients of both
 * suites spread their calls over both suites' replicas.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_AMQP_URL, deleteBrokerObjects, isolatedVhost } from './broker';
import { pollUntil } from './poll';
import { createTestDatabase, type TestDatabase } from './postgres';
import { assertFilesExist, baseEnv, freePorts, NodeProcess, ROOT, runNode, startNode, type Exit } from './processes';
import { TcpProxy, type TcpProxyOptions } from './tcp-proxy';

export const SERVICES = ['identity', 'content', 'search', 'discussion', 'config'] as const;
export type Service = (typeof SERVICES)[number];
export type ProcessName = Service | 'gateway';

/** Consumers first, so that their queues exist before the first write (proto/EVENTS.md); the gateway last. */
// Consumers before producers: on a new broker their queues then exist before the first events (EVENTS.md).
const START_ORDER: ProcessName[] = ['search', 'config', 'discussion', 'content', 'identity', 'gateway'];

export const SCRIPTS: Record<ProcessName | 'reindex', string> = {
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

/** Where a process finds a service it calls. */
const CLIENT_ADDRESS_VARIABLE: Record<Service, string> = {
  identity: 'IDENTITY_ADDRESS',
  content: 'CONTENT_ADDRESS',
  search: 'SEARCH_ADDRESS',
  discussion: 'DISCUSSION_ADDRESS',
  config: 'CONFIG_ADDRESS',
};

/** What the processes declare: each consumer its own group's queues (proto/EVENTS.md), every one the exchanges. */
export const BROKER_OBJECTS = {
  queues: [
    'cms.search',
    'cms.search.dead',
    'cms.content',
    'cms.content.dead',
    'cms.translations.v2',
    'cms.translations.dead',
  ],
  exchanges: ['cms.events', 'cms.events.dlx', 'cms.events.broadcast', 'cms.events.control'],
};

export const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 8_000;
const HTTP_TIMEOUT_MS = 15_000;

export interface HttpResult {
  status: number;
  body: Record<string, any>;
  text: string;
  headers: Headers;
}

export interface DistributedSuiteOptions {
  /** Names the data folder, for reading leftovers. */
  name: string;
  /** One TcpProxy per service between it and the broker. */
  proxied?: boolean;
  /** Options of every proxy (e.g. a downstream filter). */
  proxyOptions?: (service: Service) => TcpProxyOptions;
  /** Added to the environment of every process. */
  env?: NodeJS.ProcessEnv;
  /** Added to one process's environment. */
  envOf?: Partial<Record<ProcessName, NodeJS.ProcessEnv>>;
  /** Failure messages show the last this many characters of each process's output (default: all it kept). */
  logTailChars?: number;
  /**
   * Another suite whose virtual host and administrator password this one shares: its processes are then replicas
   * of the other's (same broker, same queues), with data folders of their own. The other suite disposes the host.
   */
  replicaOf?: DistributedSuite;
  /** How long startAll and reviveAll wait for every service to be ready (default READY_TIMEOUT_MS). */
  readyTimeoutMs?: number;
  /**
   * With `replicaOf`: every gRPC client of both suites (the gateways' and the services' calls to each other) is
   * given both suites' replicas of the service it calls (an `ipv4:` list, balanced round robin), instead of its own
   * suite's only. Prepare both suites before starting either: this changes the primary's environments.
   */
  balanced?: boolean;
  /**
   * Where the services keep their data: each its own embedded store under the suite's data folder (the default),
   * or one PostgreSQL database of the suite's own. A replica suite takes its primary's.
   */
  store?: 'embedded' | 'postgres';
}

export class DistributedSuite {
  readonly adminPassword: string;
  /** Identity's token key: one per suite and its replicas, so that a token one replica signs the others accept. */
  readonly jwtSecret: string;
  readonly auth: string;
  /** The isolated virtual host's URL: what tests publish to and inspect (never through a proxy). */
  amqpUrl = '';
  baseUrl = '';
  dataDir = '';
  /** STORE_URL of every service: the suite's PostgreSQL database, or '' on embedded stores. */
  storeUrl = '';
  readonly addresses = {} as Record<Service, string>;
  readonly envs = {} as Record<ProcessName, NodeJS.ProcessEnv>;
  /** SERVICE_AUTH_KEY of every process; a replica suite's is its primary's (their processes call each other). */
  readonly serviceKey: string;
  readonly running = {} as Partial<Record<ProcessName, NodeProcess>>;
  readonly proxies = {} as Partial<Record<Service, TcpProxy>>;
  /** Every process started, the killed ones included, for failure messages. */
  private readonly started: NodeProcess[] = [];
  private vhost: { url: string; dispose(): void } | undefined;
  /** The PostgreSQL database this suite made (a replica suite's is its primary's). */
  private database: TestDatabase | undefined;

  private constructor(private readonly options: DistributedSuiteOptions) {
    this.adminPassword = options.replicaOf?.adminPassword ?? `test-${randomUUID()}`;
    this.jwtSecret = options.replicaOf?.jwtSecret ?? `test-${randomUUID()}-${randomUUID()}`;
    this.serviceKey = options.replicaOf?.serviceKey ?? randomBytes(32).toString('base64url');
    this.auth = `Basic ${Buffer.from(`admin:${this.adminPassword}`).toString('base64')}`;
  }

  /** Makes the virtual host, data folder, ports, proxies and environments; starts nothing. */
  static async prepare(options: DistributedSuiteOptions): Promise<DistributedSuite> {
    const suite = new DistributedSuite(options);
    await suite.prepare();
    return suite;
  }

  private async prepare(): Promise<void> {
    assertFilesExist(
      Object.values(SCRIPTS),
      'The distributed tests run the built services: run `npm run build` at the workspace root first.',
    );
    if (this.options.replicaOf) {
      this.amqpUrl = this.options.replicaOf.amqpUrl;
      this.storeUrl = this.options.replicaOf.storeUrl;
    } else {
      this.vhost = isolatedVhost(process.env.AMQP_URL || DEFAULT_AMQP_URL);
      this.amqpUrl = this.vhost.url;
      await deleteBrokerObjects(this.amqpUrl, BROKER_OBJECTS);
      if (this.options.store === 'postgres') {
        this.database = await createTestDatabase(this.options.name);
        this.storeUrl = this.database.url;
      }
    }

    this.dataDir = mkdtempSync(join(tmpdir(), `cms-${this.options.name}-`));
    // The proxies listen first: a port freePorts has just released could otherwise go to a proxy, and the service
    // given it could not bind.
    const brokerUrls: Partial<Record<Service, string>> = {};
    if (this.options.proxied) {
      for (const service of SERVICES) {
        const through = await TcpProxy.forUrl(this.amqpUrl, this.options.proxyOptions?.(service));
        this.proxies[service] = through.proxy;
        brokerUrls[service] = through.url;
      }
    }
    const [gatewayPort, contentFilesPort, ...grpcPorts] = await freePorts(SERVICES.length + 2);
    SERVICES.forEach((service, i) => (this.addresses[service] = `127.0.0.1:${grpcPorts[i]}`));
    this.baseUrl = `http://127.0.0.1:${gatewayPort}`;

    const common = {
      ...baseEnv(),
      LOG_LEVEL: 'warn',
      SHUTDOWN_TIMEOUT_MS: '5000',
      SERVICE_AUTH_KEY: this.serviceKey,
      ...this.options.env,
    };
    for (const service of SERVICES) {
      this.envs[service] = {
        ...common,
        AMQP_URL: brokerUrls[service] ?? this.amqpUrl,
        [GRPC_ADDRESS_VARIABLE[service]]: this.addresses[service],
        DATA_DIR: join(this.dataDir, service),
        ...(this.storeUrl ? { STORE_URL: this.storeUrl } : {}),
      };
    }
    this.envs.identity.ADMIN_PASSWORD = this.adminPassword;
    // Required on a shared store, and the same on every identity replica.
    if (this.storeUrl) this.envs.identity.JWT_SECRET = this.jwtSecret;
    this.envs.search.CONTENT_ADDRESS = this.addresses.content;
    this.envs.search.DISCUSSION_ADDRESS = this.addresses.discussion;
    this.envs.search.CONFIG_ADDRESS = this.addresses.config;
    this.envs.content.IDENTITY_ADDRESS = this.addresses.identity;
    this.envs.content.SEARCH_ADDRESS = this.addresses.search;
    this.envs.content.DISCUSSION_ADDRESS = this.addresses.discussion;
    // content's file hop to the gateway: a port of this suite's own, so that suites (and replicas) do not collide.
    this.envs.content.CONTENT_FILES_HTTP_ADDRESS = `127.0.0.1:${contentFilesPort}`;
    this.envs.content.CONFIG_ADDRESS = this.addresses.config;
    this.envs.identity.CONFIG_ADDRESS = this.addresses.config;
    this.envs.config.CONTENT_ADDRESS = this.addresses.content;
    this.envs.config.IDENTITY_ADDRESS = this.addresses.identity;
    this.envs.discussion.CONTENT_ADDRESS = this.addresses.content;
    this.envs.discussion.IDENTITY_ADDRESS = this.addresses.identity;
    this.envs.discussion.CONFIG_ADDRESS = this.addresses.config;
    this.envs.gateway = {
      ...common,
      AMQP_URL: this.amqpUrl,
      HOST: '127.0.0.1',
      PORT: String(gatewayPort),
      PUBLIC_URL: this.baseUrl,
      CONTENT_ADDRESS: this.addresses.content,
      IDENTITY_ADDRESS: this.addresses.identity,
      SEARCH_ADDRESS: this.addresses.search,
      DISCUSSION_ADDRESS: this.addresses.discussion,
      CONFIG_ADDRESS: this.addresses.config,
      CONTENT_FILES_ADDRESS: `127.0.0.1:${contentFilesPort}`,
    };
    for (const [name, env] of Object.entries(this.options.envOf ?? {}))
      Object.assign(this.envs[name as ProcessName], env);
    if (this.options.replicaOf && this.options.balanced) this.balanceWith(this.options.replicaOf);
  }

  /** Points every client address variable of this suite's and `primary`'s processes at both suites' replicas. */
  private balanceWith(primary: DistributedSuite): void {
    for (const suite of [primary, this]) {
      for (const env of Object.values(suite.envs)) {
        for (const service of SERVICES) {
          const variable = CLIENT_ADDRESS_VARIABLE[service];
          if (env[variable]) env[variable] = `ipv4:${primary.addresses[service]},${this.addresses[service]}`;
        }
      }
    }
  }

  /** Starts the whole suite, consumers first (proto/EVENTS.md), and waits until every service is ready. */
  async startAll(): Promise<void> {
    await this.withLogs(async () => {
      for (const name of START_ORDER) this.start(name);
      await this.untilReady();
    });
  }

  /** Starts every process of the suite that is not running (a test's leftovers) and waits until all are ready. */
  async reviveAll(): Promise<void> {
    for (const name of START_ORDER) if (!this.running[name]?.running) this.start(name);
    await this.withLogs(() => this.untilReady());
  }

  start(name: ProcessName): NodeProcess {
    // Named with the suite: a replica suite runs processes of the same names.
    const child = startNode(`${name} of ${this.options.name}`, SCRIPTS[name], this.envs[name]);
    this.started.push(child);
    this.running[name] = child;
    return child;
  }

  process(name: ProcessName): NodeProcess {
    const child = this.running[name];
    if (!child) throw new Error(`${name} was never started`);
    return child;
  }

  /** SIGKILL, resolving once it is gone. */
  kill(name: ProcessName): Promise<Exit> {
    return this.process(name).kill();
  }

  proxy(service: Service): TcpProxy {
    const proxy = this.proxies[service];
    if (!proxy) throw new Error('The suite was prepared without proxies (`proxied: true`)');
    return proxy;
  }

  allProxies(): TcpProxy[] {
    return Object.values(this.proxies);
  }

  /** The gRPC port a service listens on. */
  grpcPort(service: Service): number {
    return Number(this.addresses[service].split(':')[1]);
  }

  /**
   * Waits until /readyz reports every started service ready (all but `notReady`, which may be either; with
   * none left out, until it answers 200), and fails at once when a process the suite runs has exited.
   */
  async untilReady(
    notReady: Service[] = [],
    timeoutMs = this.options.readyTimeoutMs ?? READY_TIMEOUT_MS,
  ): Promise<void> {
    const outcome = await pollUntil(
      async () => {
        const dead = Object.values(this.running).find((child) => !child.running);
        if (dead) return `${dead.name} exited (${JSON.stringify(dead.exitStatus)})`;
        const response = await fetch(`${this.baseUrl}/readyz`, { signal: AbortSignal.timeout(3000) });
        const text = await response.text();
        const services = (JSON.parse(text) as { services?: Record<string, boolean> }).services ?? {};
        const waitingFor = SERVICES.filter((service) => !notReady.includes(service) && !services[service]);
        if (waitingFor.length === 0 && (notReady.length > 0 || response.status === 200)) return 'ready';
        throw new Error(`/readyz ${response.status} ${text}`);
      },
      timeoutMs,
      { description: `every service but ${notReady.join(', ') || 'none'} to be ready`, intervalMs: 100 },
    );
    if (outcome !== 'ready') throw new Error(outcome);
  }

  /** What /readyz says of each service (false for one it cannot reach). */
  async readiness(): Promise<Record<string, boolean>> {
    const response = await fetch(`${this.baseUrl}/readyz`, { signal: AbortSignal.timeout(5000) });
    return ((await response.json()) as { services?: Record<string, boolean> }).services ?? {};
  }

  /**
   * A request through the gateway as the administrator (or as `auth`, null for anonymous), with any `headers`
   * added; throws only when no answer came.
   */
  async http(
    method: string,
    url: string,
    body?: unknown,
    auth: string | null = this.auth,
    headers: Record<string, string> = {},
  ): Promise<HttpResult> {
    const response = await fetch(url.startsWith('http') ? url : this.baseUrl + url, {
      method,
      headers: {
        ...headers,
        ...(auth ? { Authorization: auth } : {}),
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    const text = await response.text();
    let parsed: Record<string, any> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, any>) : {};
    } catch {
      // Not JSON: kept as text for the failure message.
    }
    return { status: response.status, body: parsed, text, headers: response.headers };
  }

  /** A request that must answer `status`; returns the body. */
  async expectHttp(status: number, method: string, url: string, body?: unknown): Promise<Record<string, any>> {
    const result = await this.http(method, url, body);
    if (result.status !== status) {
      throw new Error(`${method} ${url} answered ${result.status} (expected ${status}): ${result.text}`);
    }
    return result.body;
  }

  /** Runs services/search/dist/reindex.js against the running search service; returns its summary line. */
  async reindex(): Promise<string> {
    const result = await runNode(
      'reindex',
      SCRIPTS.reindex,
      { ...baseEnv(), SEARCH_ADDRESS: this.addresses.search, SERVICE_AUTH_KEY: this.serviceKey },
      60_000,
    );
    if (result.code !== 0 || !/reindexed \d+ objects/.test(result.output)) {
      throw new Error(`reindex exited with code ${result.code} (signal ${result.signal}):\n${result.output}`);
    }
    // After its progress lines.
    return result.output.trim().split('\n').at(-1) ?? '';
  }

  /** Every process's output (with `tailChars`, the end of each); an exited one's to its last byte. */
  async processLogs(tailChars = this.options.logTailChars): Promise<string> {
    const exited = this.started.filter((child) => !child.running).map((child) => child.closed);
    // Bounded: a grandchild holding the pipes must not hold up a failure message.
    await Promise.race([Promise.all(exited), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    return this.started
      .map((child) => {
        const text = child.describe();
        if (!tailChars || text.length <= tailChars) return text;
        const header = text.slice(0, text.indexOf('\n') + 1);
        return `${header}[…]\n${text.slice(text.length - tailChars)}`;
      })
      .join('\n');
  }

  /** Runs a test body; a failure carries every process's output, and that of the `others` suites (replicas). */
  async withLogs<T>(body: () => Promise<T>, others: DistributedSuite[] = []): Promise<T> {
    try {
      return await body();
    } catch (error) {
      if (error instanceof Error && !error.message.includes('\n\nProcess output:\n')) {
        const logs = await Promise.all([this, ...others].map((suite) => suite.processLogs()));
        error.message += `\n\nProcess output:\n${logs.join('\n')}`;
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

  /**
   * Stops every process, the proxies, and deletes the data folder, the virtual host and the PostgreSQL database
   * (a replica suite leaves the last two to its primary: dispose the replicas first).
   */
  async dispose(): Promise<void> {
    await Promise.all(Object.values(this.running).map((child) => child.stop(STOP_TIMEOUT_MS)));
    await Promise.all(this.allProxies().map((proxy) => proxy.close()));
    if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true });
    if (this.database) {
      await this.database
        .dispose()
        .catch((error: unknown) => console.warn(`Could not drop the test's PostgreSQL database: ${String(error)}`));
    }
    if (this.amqpUrl && !this.options.replicaOf) {
      // Best effort: the next run deletes them before it starts anyway.
      await deleteBrokerObjects(this.amqpUrl, BROKER_OBJECTS).catch((error: unknown) =>
        console.warn(`Could not delete the test's RabbitMQ queues and exchanges: ${String(error)}`),
      );
    }
    this.vhost?.dispose();
  }
}

/** Runs `task` for each item, at most `limit` at a time. */
export async function inParallel<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
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

/** A word no other test or run uses, for finding a test's own objects with SearchableText. */
export function uniqueWord(): string {
  return `w${randomUUID().replace(/-/g, '')}`;
}
