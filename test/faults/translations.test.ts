/**
 * Translation links over RabbitMQ (issue 15, item 3): the translation index is fed by content's own consumer
 * group (`translations`). Content — which also consumes — is SIGKILLed in the middle of a stream of deletes,
 * renames, language changes (some clashing) and unlinks, then restarted: without a manual step the links
 * converge (each shown on both sides, none to content that is gone) and a rebuild from the content store
 * changes nothing `@translations` answers.
 */
import { join } from 'node:path';
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite, uniqueWord } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';
import { baseEnv, ROOT, runNode } from '../support/processes';

const PAIRS = 24;
const CONVERGE_TIMEOUT_MS = 30_000;
const REBUILD_SCRIPT = join(ROOT, 'services/content/dist/translations-rebuild.js');

let suite: DistributedSuite;

describeWithBroker('faults: translation links when content is SIGKILLed mid-stream', () => {
  beforeAll(async () => {
    suite = await DistributedSuite.prepare({ name: 'faults-translations', logTailChars: 6000 });
    await suite.startAll();
  }, 60_000);

  afterAll(() => suite?.dispose(), 30_000);

  /** Every path's `@translations` items (paths that are gone, or moved away and now redirect, are left out). */
  async function linksOf(paths: string[]): Promise<Record<string, string[]>> {
    const view: Record<string, string[]> = {};
    for (const path of paths) {
      const response = await fetch(`${suite.baseUrl}${path}/@translations`, {
        redirect: 'manual',
        headers: { Authorization: suite.auth, Accept: 'application/json' },
        signal: AbortSignal.timeout(15_000),
      });
      const text = await response.text();
      if (response.status === 404 || response.status === 302) continue;
      if (response.status !== 200) throw new Error(`GET ${path}/@translations answered ${response.status}: ${text}`);
      const items = (JSON.parse(text) as { items: { '@id': string }[] }).items;
      view[path] = items.map((item) => new URL(item['@id']).pathname).sort();
    }
    return view;
  }

  /** Each link is shown on both sides, and only between objects that exist. */
  function symmetric(view: Record<string, string[]>): boolean {
    return Object.entries(view).every(([path, linked]) => linked.every((other) => view[other]?.includes(path)));
  }

  test(
    'links converge on the content store after the kill, and a rebuild changes nothing',
    () =>
      suite.withLogs(async () => {
        await suite.expectHttp(204, 'PATCH', '/@controlpanels/language', { available_languages: ['en', 'es', 'de'] });
        const word = uniqueWord();
        const ids = Array.from({ length: PAIRS }, (_, i) => `${word}-${i}`);
        for (const id of ids) {
          const en = await suite.expectHttp(201, 'POST', '/en', { '@type': 'Document', id, title: id });
          await suite.expectHttp(201, 'POST', '/es', { '@type': 'Document', id, title: id, translation_of: en.UID });
        }

        // The stream: each pair gets one change; content is killed once a third of them were sent.
        const changes = ids.map((id, i) => () => {
          switch (i % 4) {
            case 0:
              return suite.http('DELETE', `/es/${id}`);
            case 1:
              return suite.http('PATCH', `/en/${id}`, { id: `${id}-renamed` });
            case 2:
              // English, as its partner is: a clash, resolved by unlinking it.
              return suite.http('PATCH', `/es/${id}`, { language: 'en' });
            default:
              return suite.http('DELETE', `/en/${id}/@translations`, { language: 'es' });
          }
        });
        let sent = 0;
        const stream = (async () => {
          for (const change of changes) {
            sent += 1;
            // Failures while content is down are expected: what was acknowledged is what counts.
            await change().catch(() => undefined);
          }
        })();
        await pollUntil(() => sent >= PAIRS / 3, 20_000, { description: 'a third of the changes sent' });
        expect((await suite.kill('content')).signal).toBe('SIGKILL');
        await stream;
        suite.start('content');
        await suite.untilReady();
        // The changes the outage refused, made now.
        for (const change of changes) await change();

        const paths = ids.flatMap((id) => [`/en/${id}`, `/en/${id}-renamed`, `/es/${id}`]);
        const incremental = await pollUntil(
          async () => {
            const view = await linksOf(paths);
            return symmetric(view) ? view : undefined;
          },
          CONVERGE_TIMEOUT_MS,
          { description: 'every link shown on both sides' },
        );
        // What each change leaves: deleted and unlinked pairs have no links, renamed ones keep theirs.
        ids.forEach((id, i) => {
          if (i % 4 === 1) expect(incremental[`/en/${id}-renamed`]).toEqual([`/es/${id}`]);
          else expect(incremental[`/en/${id}`]).toEqual([]);
        });

        const rebuilt = await runNode(
          'translations-rebuild',
          REBUILD_SCRIPT,
          { ...baseEnv(), CONTENT_ADDRESS: suite.addresses.content, SERVICE_AUTH_KEY: suite.serviceKey },
          60_000,
        );
        expect(rebuilt.output).toMatch(/rebuilt the translation groups: \d+ objects linked/);
        expect(await linksOf(paths)).toEqual(incremental);
      }),
    180_000,
  );
});
