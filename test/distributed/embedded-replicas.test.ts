/**
 * Replicas on embedded stores notice each other (issue 24, item 4): two search processes with stores of their own
 * (separate folders) on one RabbitMQ virtual host would each index half of the events and answer half of the
 * catalog. Each heartbeats on the bus; once they hear each other, both stop consuming (the group's queue has no
 * consumer left), report not ready (gRPC health `''` NOT_SERVING, while `liveness` stays SERVING: nothing to
 * restart) and log that replicas need a shared store engine.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { checkHealth, createHealthClient, LIVENESS_SERVICE } from '@cms/shared';
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';
import { freePort, startNode, type NodeProcess } from '../support/processes';

const SEARCH_QUEUE = 'cms.search.v2';
const NEEDS_SHARED_ENGINE = 'replicas of search need a shared store engine';
const TIMEOUT_MS = 60_000;

let suite: DistributedSuite;
let second: NodeProcess | undefined;
const clients: ReturnType<typeof createHealthClient>[] = [];

/** Consumers of a queue, as the broker counts them. */
function consumersOf(amqpUrl: string, queue: string): number {
  const vhost = decodeURIComponent(new URL(amqpUrl).pathname.slice(1)) || '/';
  const out = execFileSync(
    'rabbitmqctl',
    ['list_queues', '-q', '--no-table-headers', '-p', vhost, 'name', 'consumers'],
    {
      encoding: 'utf8',
    },
  );
  for (const line of out.split('\n')) {
    const [name, consumers] = line.trim().split(/\s+/);
    if (name === queue) return Number(consumers);
  }
  throw new Error(`No queue ${queue} in ${vhost}:\n${out}`);
}

/** What a process's gRPC health says of `service` (`''`: readiness). */
function health(client: ReturnType<typeof createHealthClient>, service = ''): Promise<string> {
  return new Promise((resolve) =>
    client.Check({ service }, { deadline: Date.now() + 2000 }, (error, response) =>
      resolve(error ? `error: ${error.message}` : (response?.status ?? 'none')),
    ),
  );
}

describeWithBroker('replicas of a service on embedded stores', () => {
  beforeAll(async () => {
    suite = await DistributedSuite.prepare({ name: 'embedded-replicas', env: { METRICS_PORT: 'off' } });
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    await second?.stop(8000);
    await suite?.dispose();
  }, 60_000);

  test(
    'find each other on the bus, stop consuming and report not ready',
    () =>
      suite.withLogs(async () => {
        const first = suite.start('search');
        const firstHealth = createHealthClient(suite.addresses.search, 1024 * 1024);
        clients.push(firstHealth);
        await pollUntil(() => checkHealth(firstHealth, 2000), TIMEOUT_MS, {
          description: 'the first search process to be ready',
          intervalMs: 200,
        });
        // Its consumer is registered with the broker a moment after its readiness, at the latest.
        await pollUntil(() => consumersOf(suite.amqpUrl, SEARCH_QUEUE) === 1 || undefined, TIMEOUT_MS, {
          description: 'the first search process consuming',
          intervalMs: 200,
        });

        // A second search process, a folder of its own, the same virtual host.
        const secondAddress = `127.0.0.1:${await freePort()}`;
        second = startNode('search-b', first.script, {
          ...suite.envs.search,
          SEARCH_GRPC_ADDRESS: secondAddress,
          DATA_DIR: join(suite.dataDir, 'search-b'),
        });
        const secondHealth = createHealthClient(secondAddress, 1024 * 1024);
        clients.push(secondHealth);
        const started = second;

        await pollUntil(
          async () => {
            if (!started.running) throw new Error(`search B exited:\n${started.describe()}`);
            // Answered NOT_SERVING, not merely unreachable (a process still starting).
            const readiness = await Promise.all([health(firstHealth), health(secondHealth)]);
            return (
              readiness.every((status) => status === 'NOT_SERVING') &&
              first.output.includes(NEEDS_SHARED_ENGINE) &&
              started.output.includes(NEEDS_SHARED_ENGINE)
            );
          },
          TIMEOUT_MS,
          { description: 'both search processes to report the other and turn unready', intervalMs: 200 },
        );
        await pollUntil(() => consumersOf(suite.amqpUrl, SEARCH_QUEUE) === 0, TIMEOUT_MS, {
          description: "the search group's queue to have no consumer left",
          intervalMs: 200,
        });
        // Each names the other's store; neither is restarted by its liveness probe.
        expect(first.output).toContain(join(suite.dataDir, 'search-b', 'search'));
        expect(started.output).toContain(join(suite.dataDir, 'search', 'search'));
        for (const client of [firstHealth, secondHealth]) {
          expect(await health(client, LIVENESS_SERVICE)).toBe('SERVING');
        }
        expect(first.running && started.running).toBe(true);
      }),
    150_000,
  );
});
