/**
 * Requests reach every replica (issue 24, item 5): the gateway's gRPC clients balance round robin over every
 * address their target names, and a replica that starts after the gateway has connected gets its share of calls
 * within seconds. The gateway's CONTENT_ADDRESS is a static list of two addresses (`ipv4:…,…`); the second replica
 * is started only once the gateway has served through the first for a while. Every server also ages its
 * connections out quickly (GRPC_MAX_CONNECTION_AGE_MS), which must cost no request.
 *
 * The second content replica keeps its own embedded store, so it runs on a virtual host of its own: on the suite's
 * host the replicas would find each other on the bus and refuse to serve as replicas of one embedded store (what
 * test/distributed/embedded-replicas.test.ts shows). What this test counts, the Handle calls each replica serves
 * (from its own /metrics), does not depend on the store.
 */
import { join } from 'node:path';
import { DEFAULT_AMQP_URL, isolatedVhost } from '../support/broker';
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';
import { freePorts, startNode, type NodeProcess } from '../support/processes';

const CALLS = 60;

let suite: DistributedSuite;
let second: NodeProcess | undefined;
let secondVhost: { url: string; dispose(): void } | undefined;
const ports = { metricsA: 0, metricsB: 0, grpcB: 0, filesB: 0 };

async function handleCalls(metricsPort: number): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(5000) });
  let total = 0;
  for (const line of (await response.text()).split('\n')) {
    const match = /^cms_grpc_server_handling_seconds_count\{([^}]*)\} (\S+)$/.exec(line);
    if (match && /grpc_service="cms\.content\.v1\.ContentService",grpc_method="Handle"/.test(match[1])) {
      total += Number(match[2]);
    }
  }
  return total;
}

/** `count` anonymous reads of the site root through the gateway, one after another; each must answer 200. */
async function readRoot(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const result = await suite.http('GET', '/', undefined, null);
    if (result.status !== 200) throw new Error(`GET / answered ${result.status}: ${result.text}`);
  }
}

describeWithBroker('balancing over replicas that come later', () => {
  beforeAll(async () => {
    [ports.metricsA, ports.metricsB, ports.grpcB, ports.filesB] = await freePorts(4);
    suite = await DistributedSuite.prepare({
      name: 'balancing',
      env: { METRICS_PORT: 'off', GRPC_MAX_CONNECTION_AGE_MS: '1500' },
      envOf: { content: { METRICS_PORT: String(ports.metricsA), METRICS_HOST: '127.0.0.1' } },
      readyTimeoutMs: 90_000,
    });
    // Both replicas' addresses, the second not listening yet.
    suite.envs.gateway.CONTENT_ADDRESS = `ipv4:${suite.addresses.content},127.0.0.1:${ports.grpcB}`;
    await suite.startAll();
  }, 120_000);

  afterAll(async () => {
    await second?.stop(8000);
    await suite?.dispose();
    secondVhost?.dispose();
  }, 60_000);

  test(
    'a content replica started after the gateway connected gets a fair share of calls within seconds',
    () =>
      suite.withLogs(async () => {
        // Only the first replica answers; connections are aged out meanwhile, and no request notices.
        await readRoot(20);
        // Longer than GRPC_MAX_CONNECTION_AGE_MS: every connection has been aged out once by the next reads.
        await new Promise((resolve) => setTimeout(resolve, 2000));
        await readRoot(10);
        expect(await handleCalls(ports.metricsA)).toBeGreaterThanOrEqual(30);

        secondVhost = isolatedVhost(process.env.AMQP_URL || DEFAULT_AMQP_URL);
        second = startNode('content-b', join(__dirname, '../../services/content/dist/main.js'), {
          ...suite.envs.content,
          AMQP_URL: secondVhost.url,
          DATA_DIR: join(suite.dataDir, 'content-b'),
          CONTENT_GRPC_ADDRESS: `127.0.0.1:${ports.grpcB}`,
          CONTENT_FILES_HTTP_ADDRESS: `127.0.0.1:${ports.filesB}`,
          METRICS_PORT: String(ports.metricsB),
        });
        const started = second;
        await pollUntil(
          async () => {
            if (!started.running) throw new Error(`content B exited:\n${started.describe()}`);
            await readRoot(1);
            return (await handleCalls(ports.metricsB)) > 0;
          },
          30_000,
          { description: 'the gateway to send calls to the content replica started last', intervalMs: 100 },
        );

        // From now on, round robin: each replica about half of the calls.
        const before = { a: await handleCalls(ports.metricsA), b: await handleCalls(ports.metricsB) };
        await readRoot(CALLS);
        const shareOfB = ((await handleCalls(ports.metricsB)) - before.b) / CALLS;
        const shareOfA = ((await handleCalls(ports.metricsA)) - before.a) / CALLS;
        expect(shareOfA + shareOfB).toBeCloseTo(1, 5);
        expect(shareOfB).toBeGreaterThanOrEqual(0.35);
        expect(shareOfB).toBeLessThanOrEqual(0.65);
      }),
    120_000,
  );
});
