/**
 * Concurrent writes to one object through the gateway: no acknowledged change is lost (no lost update between
 * writers of different fields, the last committed of racing writers of one field wins), concurrent creates with one
 * title get an object each, a deletion racing changes wins for good, and the index converges on the store without
 * a manual step.
 */
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite, inParallel } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';
import { CONVERGE_TIMEOUT_MS, WriteLedger } from '../support/write-ledger';

let suite: DistributedSuite;

/** One client's sequential writes of one field; what the store may show of it in the end. */
class FieldWriter {
  lastAcked: unknown = undefined;
  readonly statuses: number[] = [];

  constructor(
    private readonly url: string,
    private readonly field: string,
    private readonly value: (n: number) => unknown,
  ) {}

  async run(count: number): Promise<void> {
    for (let n = 1; n <= count; n++) {
      const value = this.value(n);
      const result = await suite.http('PATCH', this.url, { [this.field]: value });
      this.statuses.push(result.status);
      if (result.status >= 200 && result.status < 300) this.lastAcked = value;
      // 409: the write path gave up after its retries; nothing was written. Anything else is a failure here.
      else if (result.status !== 409) throw new Error(`PATCH ${this.field} answered ${result.status}: ${result.text}`);
    }
  }
}

describeWithBroker('faults: concurrent writes to one object', () => {
  beforeAll(async () => {
    suite = await DistributedSuite.prepare({ name: 'faults-concurrent', logTailChars: 6000 });
    await suite.startAll();
  }, 60_000);

  afterAll(() => suite?.dispose(), 30_000);

  beforeEach(() => suite.reviveAll(), 60_000);

  test('writers of different fields and racing writers of one field: every acknowledged change is kept', () =>
    suite.withLogs(async () => {
      const ledger = await WriteLedger.inNewFolder(suite, 'Concurrent fields');
      expect(await ledger.create(ledger.nextTitle('target'))).toBe('acked');
      const [target] = ledger.live();
      const subject = (n: number) => `subj${n}${ledger.word}`;
      const titleA = new FieldWriter(target.url, 'title', (n) => `A ${n} ${ledger.word}`);
      const titleB = new FieldWriter(target.url, 'title', (n) => `B ${n} ${ledger.word}`);
      const description = new FieldWriter(target.url, 'description', (n) => `Description ${n}`);
      const subjects = new FieldWriter(target.url, 'subjects', (n) => [subject(n)]);
      const writers = [titleA, titleB, description, subjects];

      await Promise.all(writers.map((writer) => writer.run(25)));

      const acked = writers.map((writer) => writer.statuses.filter((status) => status < 300).length);
      expect(acked.every((count) => count > 0)).toBe(true);
      const stored = await suite.expectHttp(200, 'GET', target.url);
      // The last committed title is the last acknowledged one of A or of B; the other fields' last acknowledged.
      expect([titleA.lastAcked, titleB.lastAcked]).toContain(stored.title);
      expect(stored.description).toBe(description.lastAcked);
      expect(stored.subjects).toEqual(subjects.lastAcked);

      target.title = stored.title;
      await ledger.verify();
      // The index has the last subject, and no earlier one.
      const last = (subjects.lastAcked as string[])[0];
      await pollUntil(
        async () => {
          const found = await suite.http('GET', `/@search?SearchableText=${last}`);
          const earlier = await suite.http('GET', `/@search?SearchableText=${subject(1)}`);
          return found.body.items_total === 1 && (last === subject(1) || earlier.body.items_total === 0);
        },
        CONVERGE_TIMEOUT_MS,
        { description: `the index to find the object by its last subject only` },
      );
    }));

  test('concurrent creates with one title in one folder: an object each, all indexed', () =>
    suite.withLogs(async () => {
      const ledger = await WriteLedger.inNewFolder(suite, 'Concurrent creates');
      const title = `Same title ${ledger.word}`;

      const outcomes = await inParallel(Array.from({ length: 16 }), 8, () => ledger.create(title));

      expect(outcomes.filter((outcome) => outcome === 'uncertain')).toEqual([]);
      // Each acknowledged create has an object of its own (the ledger keys them by URL).
      expect(ledger.objects.size).toBe(outcomes.filter((outcome) => outcome === 'acked').length);
      await ledger.verify();
    }));

  test('a deletion racing title changes: deleted for good when acknowledged, else the last change stands', () =>
    suite.withLogs(async () => {
      const ledger = await WriteLedger.inNewFolder(suite, 'Delete races');
      for (let i = 0; i < 3; i++) expect(await ledger.create(ledger.nextTitle('doc'))).toBe('acked');
      const [victim] = ledger.live();
      const original = victim.title;

      const titles = Array.from({ length: 12 }, (_, n) => `Racing ${n} ${ledger.word}`);
      const patches = titles.map((title) => suite.http('PATCH', victim.url, { title }));
      const removal = ledger.remove(victim);
      const results = await Promise.all(patches);
      const outcome = await removal;

      // Each change happened, found the object gone, or gave up on the contention; the deletion too.
      expect(results.filter((result) => ![204, 404, 409].includes(result.status))).toEqual([]);
      expect(outcome).not.toBe('uncertain');
      if (outcome === 'refused') {
        // Not deleted: it shows one of the acknowledged changes (the last committed), or none was.
        const acknowledged = titles.filter((_, n) => results[n].status === 204);
        const stored = await suite.expectHttp(200, 'GET', victim.url);
        expect(acknowledged.length > 0 ? acknowledged : [original]).toContain(stored.title);
        victim.title = stored.title;
        await ledger.verify();
        expect(await ledger.remove(victim)).toBe('acked');
      }
      await ledger.verify();
    }));

  test('racing workflow transitions: the store and the index agree on the state', () =>
    suite.withLogs(async () => {
      const ledger = await WriteLedger.inNewFolder(suite, 'Transition races');
      expect(await ledger.create(ledger.nextTitle('doc'))).toBe('acked');
      const [doc] = ledger.live();

      const statuses = await inParallel(
        Array.from({ length: 12 }, (_, n) => n),
        6,
        async (n) => {
          const transition = n % 2 === 0 ? 'publish' : 'retract';
          return (await suite.http('POST', `${doc.url}/@workflow/${transition}`, {})).status;
        },
      );

      expect(statuses.filter((status) => status >= 500)).toEqual([]);
      await ledger.verify();
      // What anonymous visitors find follows the state too (the folder itself is private).
      const state = (await suite.expectHttp(200, 'GET', doc.url)).review_state;
      const anonymous = await suite.http('GET', `/@search?SearchableText=${ledger.word}`, undefined, null);
      expect(anonymous.body.items.map((item: { '@id': string }) => item['@id'])).toEqual(
        state === 'published' ? [doc.url] : [],
      );
    }));
});
