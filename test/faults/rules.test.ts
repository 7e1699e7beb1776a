/**
 * A content rule runs at least once per event and never repeats its effect, across a SIGKILL of config (whose
 * rules consumer and runner take the actions) in the middle of a stream of triggering writes, over RabbitMQ:
 * every page added to the folder is copied exactly once (a repeated Copy would leave a second, renamed copy).
 */
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite, uniqueWord } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';

let suite: DistributedSuite;

describeWithBroker('faults: the rules consumer killed mid-stream', () => {
  beforeAll(async () => {
    suite = await DistributedSuite.prepare({ name: 'faults-rules', logTailChars: 6000 });
    await suite.startAll();
  }, 60_000);

  afterAll(() => suite?.dispose(), 30_000);

  // A runner killed while it held an execution lets go of it within one claim lease (15 s; rule-runner.ts), and a
  // Copy it took without recording it done is asked for again under the same key, which content takes once.
  test('config SIGKILLed while pages are added: each is copied once, none lost, none twice', () =>
    suite.withLogs(async () => {
      const word = uniqueWord();
      const inbox = `inbox-${word}`;
      const copies = `copies-${word}`;
      await suite.expectHttp(201, 'POST', '/', { '@type': 'Folder', id: inbox, title: `Inbox ${word}` });
      await suite.expectHttp(201, 'POST', '/', { '@type': 'Folder', id: copies, title: `Copies ${word}` });
      const rule = await suite.expectHttp(201, 'POST', '/@controlpanels/content-rules', {
        title: `Copy ${word}`,
        event: 'Object added to this container',
      });
      await suite.expectHttp(201, 'POST', `/@controlpanels/content-rules/${rule.id}/action`, {
        type: 'cms.actions.Copy',
        target_folder: `/${copies}`,
      });
      await suite.expectHttp(200, 'POST', `/${inbox}/@content-rules/${rule.id}`);

      const added: string[] = [];
      const add = async (count: number) => {
        for (let i = 0; i < count; i++) {
          const id = `page-${added.length}`;
          await suite.expectHttp(201, 'POST', `/${inbox}`, { '@type': 'Document', id, title: `Page ${id}` });
          added.push(id);
        }
      };
      await add(10);
      const killed = await suite.kill('config');
      expect(killed.signal).toBe('SIGKILL');
      // While config is down the events wait in the rules queue (content's writes do not need config).
      await add(10);
      suite.start('config');
      await suite.untilReady();
      await add(10);

      const copied = async () =>
        ((await suite.expectHttp(200, 'GET', `/${copies}?b_size=1000`)).items as { '@id': string }[])
          .map((i) => i['@id'].split('/').pop() as string)
          .sort();
      // None lost: every page is copied (a page whose event were lost would never be).
      let seen: string[] = [];
      await pollUntil(
        async () => JSON.stringify((seen = await copied())) === JSON.stringify([...added].sort()),
        90_000,
        { description: 'every added page copied' },
      ).catch((error: Error) => {
        throw new Error(`${error.message}; copied: ${seen.join(' ')}`);
      });
      // None twice: a marker added now is copied after every execution recovered from the crash has run (the
      // runner takes executions in the order they were recorded); a repeat would have left a renamed copy.
      await add(1);
      await pollUntil(async () => (await copied()).includes(added[added.length - 1]), 60_000, {
        description: 'the marker copied',
      });
      expect(await copied()).toEqual([...added].sort());
    }));
});
