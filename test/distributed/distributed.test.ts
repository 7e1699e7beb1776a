/**
 * Distributed mode end to end: every service and the gateway as its own
 * `node` process, talking gRPC to each other and RabbitMQ for events. Runs the
 * built `dist/` entry points (CI builds first; this file does not). The
 * harness (processes, virtual host, readiness) is test/support/distributed-suite.ts.
 */
import * as grpc from '@grpc/grpc-js';
import { protos, SERVICE_PROOF_KEY, signServiceProof } from '@cms/shared';
import { createHash, randomBytes } from 'node:crypto';
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite, inParallel, SERVICES, uniqueWord } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';

const CONVERGE_TIMEOUT_MS = 20_000;

let suite: DistributedSuite;
let folderUrl = '';
let folderWord = '';
/** Content objects created through the gateway and not deleted (the site root excluded). */
let existing = 0;

/** Creates a Document in the test folder; a write must succeed whether or not search is up. */
async function createDocument(title: string): Promise<string> {
  const body = await suite.expectHttp(201, 'POST', folderUrl, { '@type': 'Document', title });
  existing++;
  return body['@id'] as string;
}

interface SearchResult {
  items_total: number;
  items: { '@id': string }[];
}

async function search(word: string): Promise<SearchResult> {
  const result = await suite.http('GET', `/@search?SearchableText=${encodeURIComponent(word)}&b_size=1000`);
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

describeWithBroker('distributed mode over RabbitMQ', () => {
  beforeAll(async () => {
    suite = await DistributedSuite.prepare({ name: 'distributed' });

    // Search and config start last, on a broker where they never ran: content's bus declared their queues (every
    // process declares every group of the suite, proto/EVENTS.md), so its first events wait there for them.
    for (const service of SERVICES) if (service !== 'search' && service !== 'config') suite.start(service);
    suite.start('gateway');

    await suite.withLogs(async () => {
      await suite.untilReady(['search', 'config']);
      folderWord = uniqueWord();
      const folder = await suite.expectHttp(201, 'POST', '/', {
        '@type': 'Folder',
        title: `Distributed ${folderWord}`,
      });
      folderUrl = folder['@id'] as string;
      existing++;

      suite.start('search');
      suite.start('config');
      await suite.untilReady();
    });
  }, 60_000);

  afterAll(async () => {
    await suite?.dispose();
  }, 30_000);

  test('a write made before search first started reaches search: its queue was declared by content', () =>
    suite.withLogs(async () => {
      expect(suite.process('content').output).not.toMatch(/unroutable/);
      const found = await searchUntil(folderWord, 'the test folder in the search results', (r) => r.items_total === 1);
      expect(found.items.map((item) => item['@id'])).toEqual([folderUrl]);
    }));

  test('a created document is found by the very next search (read-your-writes)', () =>
    suite.withLogs(async () => {
      const word = uniqueWord();
      const id = await createDocument(`Read your writes ${word}`);

      const result = await search(word);

      expect(result.items_total).toBe(1);
      expect(result.items.map((item) => item['@id'])).toEqual([id]);
    }));

  test(
    'search killed with SIGKILL and restarted converges on every write made meanwhile',
    () =>
      suite.withLogs(async () => {
        const word = uniqueWord();
        const killed = await suite.kill('search');
        expect(killed.signal).toBe('SIGKILL');
        const ready = await suite.http('GET', '/readyz');
        expect(ready.status).toBe(503);
        expect(ready.body.services).toMatchObject({ search: false });

        // Writes while search is down: the events wait in its durable queue.
        const whileDown = await inParallel(
          Array.from({ length: 30 }, (_, i) => `Down ${i} ${word}`),
          5,
          createDocument,
        );
        // And more while it starts again.
        suite.start('search');
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
          const result = await suite.http('DELETE', id);
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

  test('every service process refuses a Handle claiming Manager without a proof under the suite key', () =>
    suite.withLogs(async () => {
      const services = {
        identity: protos().identity.IdentityService,
        content: protos().content.ContentService,
        search: protos().search.SearchService,
        discussion: protos().discussion.DiscussionService,
        config: protos().config.ConfigService,
      };
      const request = {
        method: 'POST',
        body: Buffer.from(JSON.stringify({ '@type': 'Document', id: 'forged', title: 'Forged' })),
        principal: { id: 'intruder', roles: ['Manager'] },
        public_url: suite.baseUrl,
      };
      for (const service of SERVICES) {
        const Ctor = services[service] as unknown as {
          new (
            a: string,
            c: grpc.ChannelCredentials,
          ): grpc.Client & {
            Handle(r: unknown, m: grpc.Metadata, cb: (e: grpc.ServiceError | null) => void): void;
          };
          service: grpc.ServiceDefinition;
        };
        const client = new Ctor(suite.addresses[service], grpc.credentials.createInsecure());
        // A proof as the suite makes it, for this very request, but under a key of this test's own.
        const handle = Ctor.service.Handle!;
        const bodyDigest = createHash('sha256').update(handle.requestSerialize(request)).digest('base64url');
        const otherKey = new grpc.Metadata();
        otherKey.set(
          SERVICE_PROOF_KEY,
          signServiceProof(
            { method: handle.path, requestId: '', clientAddress: '', issuedAt: Date.now(), bodyDigest },
            randomBytes(32),
          ),
        );
        try {
          for (const metadata of [new grpc.Metadata(), otherKey]) {
            const error = await new Promise<grpc.ServiceError | null>((resolve) =>
              client.Handle(request, metadata, resolve),
            );
            expect({ service, code: error?.code }).toEqual({ service, code: grpc.status.UNAUTHENTICATED });
          }
        } finally {
          client.close();
        }
      }
      expect((await suite.http('GET', '/forged')).status).toBe(404);
    }));

  test('reindex.js rebuilds the catalog of the running search service', () =>
    suite.withLogs(async () => {
      const summary = /reindexed (\d+) objects/.exec(await suite.reindex());
      expect(Number(summary![1])).toBeGreaterThanOrEqual(existing);
    }));
});
