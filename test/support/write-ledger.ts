/**
 * What a fault test wrote through the gateway, and the checks every fault scenario ends with:
 * every acknowledged (2xx) write is in the store, nothing refused (4xx) is, and the search index converges on
 * exactly what the store holds, without a manual step.
 *
 * Each write's outcome is one of: acked (2xx: it must be in the store), refused (4xx: it must not be), uncertain
 * (5xx or no answer: the process that had it may have died before or after its commit; either is fine). Writes
 * to one object are made one after another, so its last acknowledged title is what the store must show, unless
 * an uncertain write came after it.
 */
import { pollUntil } from './poll';
import { seededRandom } from './seeded-random';

export { seededRandom };
import type { DistributedSuite, HttpResult } from './distributed-suite';
import { uniqueWord } from './distributed-suite';

export type Outcome = 'acked' | 'refused' | 'uncertain';

export interface LedgerObject {
  url: string;
  /** The title of its last acknowledged write. */
  title: string;
  /** Titles of uncertain writes after it: the store may show one of them instead. */
  uncertainTitles: string[];
  /** Titles refused since the object was created: the store must never show them. */
  refusedTitles: string[];
  deleted: 'no' | 'yes' | 'maybe';
}

/** How a listing item and a search result item describe an object: the summary both answer. */
export interface Summary {
  '@id': string;
  '@type': string;
  title: string;
  description: string;
  review_state: string | null;
  type_title: string;
}

/** Bound of the convergence checks of scenarios that pass on a healthy suite (they converge in about a second). */
export const CONVERGE_TIMEOUT_MS = 30_000;

function outcomeOf(status: number | null): Outcome {
  if (status !== null && status >= 200 && status < 300) return 'acked';
  if (status !== null && status >= 400 && status < 500) return 'refused';
  return 'uncertain';
}

export function summaryOf(item: Record<string, any>): Summary {
  return {
    '@id': item['@id'],
    '@type': item['@type'],
    title: item.title,
    description: item.description,
    review_state: item.review_state ?? null,
    type_title: item.type_title,
  };
}

const byId = (a: Summary, b: Summary) => (a['@id'] < b['@id'] ? -1 : a['@id'] > b['@id'] ? 1 : 0);

/** Differences between two sets of summaries, keyed by `@id`, as lines for a failure message ('' when equal). */
export function summaryDiff(expected: Summary[], actual: Summary[], names = ['store', 'index']): string {
  const lines: string[] = [];
  const actualById = new Map(actual.map((item) => [item['@id'], item]));
  const expectedById = new Map(expected.map((item) => [item['@id'], item]));
  for (const item of expected) {
    const other = actualById.get(item['@id']);
    if (!other) lines.push(`in the ${names[0]}, not the ${names[1]}: ${JSON.stringify(item)}`);
    else if (JSON.stringify(other) !== JSON.stringify(item))
      lines.push(`differs: ${names[0]} ${JSON.stringify(item)}, ${names[1]} ${JSON.stringify(other)}`);
  }
  for (const item of actual) {
    if (!expectedById.has(item['@id'])) lines.push(`in the ${names[1]}, not the ${names[0]}: ${JSON.stringify(item)}`);
  }
  return lines.join('\n');
}

/**
 * The store's view of everything below a folder (the folder excluded): its listing, and each listed folder's,
 * as the listings answer them, sorted by `@id`.
 */
export async function storeTree(suite: DistributedSuite, folderUrl: string): Promise<Summary[]> {
  const body = await suite.expectHttp(200, 'GET', `${folderUrl}?b_size=1000&metadata_fields=is_folderish`);
  if (body.items_total !== body.items.length) throw new Error(`${folderUrl} holds ${body.items_total}, not one batch`);
  const items = body.items as Record<string, any>[];
  const below = await Promise.all(
    items.filter((item) => item.is_folderish).map((item) => storeTree(suite, item['@id'])),
  );
  return [...items.map(summaryOf), ...below.flat()].sort(byId);
}

/** The index's view of the same: @search below the folder (as the administrator, or as `auth`), sorted by `@id`. */
export async function indexTree(suite: DistributedSuite, folderUrl: string, auth?: string | null): Promise<Summary[]> {
  const path = new URL(folderUrl).pathname;
  const result = await suite.http(
    'GET',
    `${folderUrl}/@search?b_size=1000&sort_on=path`,
    undefined,
    auth === undefined ? suite.auth : auth,
  );
  if (result.status !== 200) throw new Error(`@search answered ${result.status}: ${result.text}`);
  if (result.body.items_total > result.body.items.length) throw new Error(`@search found ${result.body.items_total}`);
  return (result.body.items as Record<string, any>[])
    .map(summaryOf)
    .filter((item) => new URL(item['@id']).pathname !== path)
    .sort(byId);
}

/** Polls until @search below the folder answers exactly what the store's listings hold (ids and summaries). */
export function untilIndexMatchesStore(
  suite: DistributedSuite,
  folderUrl: string,
  timeoutMs = CONVERGE_TIMEOUT_MS,
  context = '',
): Promise<Summary[]> {
  return pollUntil(
    async () => {
      const [store, index] = await Promise.all([storeTree(suite, folderUrl), indexTree(suite, folderUrl)]);
      const diff = summaryDiff(store, index);
      if (diff) throw new Error(`index differs from the store:\n${diff}`);
      return index;
    },
    timeoutMs,
    {
      description: `@search below ${new URL(folderUrl).pathname} to equal the store${context ? ` (${context})` : ''}`,
      intervalMs: 250,
    },
  );
}

export class WriteLedger {
  readonly objects = new Map<string, LedgerObject>();
  /** Titles of creates whose outcome is unknown: such an object may exist. */
  readonly uncertainCreates = new Set<string>();
  /** Titles of refused creates: no such object may exist. */
  readonly refusedCreates = new Set<string>();
  readonly counts: Record<Outcome, number> = { acked: 0, refused: 0, uncertain: 0 };
  private titles = 0;

  private constructor(
    readonly suite: DistributedSuite,
    /** The folder every object of this ledger is created in. */
    readonly folderUrl: string,
    /** In every title, for finding the ledger's objects by text. */
    readonly word: string,
  ) {}

  /** A ledger of its own folder (created now, and it must be). */
  static async inNewFolder(suite: DistributedSuite, label: string): Promise<WriteLedger> {
    const word = uniqueWord();
    const folder = await suite.expectHttp(201, 'POST', '/', { '@type': 'Folder', title: `${label} ${word}` });
    return new WriteLedger(suite, folder['@id'] as string, word);
  }

  get folderPath(): string {
    return new URL(this.folderUrl).pathname;
  }

  /** A title no other write of this ledger uses. */
  nextTitle(label: string): string {
    return `${label} ${++this.titles} ${this.word}`;
  }

  /** Live objects (created, acknowledged, not deleted nor maybe deleted). */
  live(): LedgerObject[] {
    return [...this.objects.values()].filter((object) => object.deleted === 'no');
  }

  /** Creates an object in the ledger's folder, or in `parentUrl` (one of the ledger's folders). */
  async create(
    title: string,
    type = 'Document',
    fields: Record<string, unknown> = {},
    parentUrl = this.folderUrl,
  ): Promise<Outcome> {
    const result = await this.attempt('POST', parentUrl, { '@type': type, title, ...fields });
    const outcome = this.count(result);
    if (outcome === 'acked') {
      const url = result!.body['@id'] as string;
      this.objects.set(url, { url, title, uncertainTitles: [], refusedTitles: [], deleted: 'no' });
    } else if (outcome === 'refused') this.refusedCreates.add(title);
    else this.uncertainCreates.add(title);
    return outcome;
  }

  /** PATCHes an object's title (and any other fields given). */
  async patchTitle(object: LedgerObject, title: string, fields: Record<string, unknown> = {}): Promise<Outcome> {
    const result = await this.attempt('PATCH', object.url, { title, ...fields });
    const outcome = this.count(result);
    if (outcome === 'acked') {
      object.title = title;
      object.uncertainTitles = [];
    } else if (outcome === 'refused') object.refusedTitles.push(title);
    else object.uncertainTitles.push(title);
    return outcome;
  }

  async remove(object: LedgerObject): Promise<Outcome> {
    const result = await this.attempt('DELETE', object.url);
    const outcome = this.count(result);
    if (outcome === 'acked') object.deleted = 'yes';
    else if (outcome === 'uncertain') object.deleted = 'maybe';
    return outcome;
  }

  /** The object created with `title` (acknowledged). */
  byTitle(title: string): LedgerObject {
    const found = [...this.objects.values()].find((object) => object.title === title);
    if (!found) throw new Error(`No acknowledged object "${title}"`);
    return found;
  }

  /** Renames an object (PATCH of its id); the rename must be acknowledged. */
  async renameAcked(object: LedgerObject, id: string): Promise<void> {
    await this.suite.expectHttp(204, 'PATCH', object.url, { id });
    const parent = object.url.slice(0, object.url.lastIndexOf('/'));
    this.relocated(object.url, `${parent}/${id}`);
  }

  /** Moves objects into one of the ledger's folders (@move); the move must be acknowledged. */
  async moveAcked(objects: LedgerObject[], targetUrl: string): Promise<void> {
    const body = await this.suite.http('POST', `${targetUrl}/@move`, { source: objects.map((object) => object.url) });
    if (body.status !== 200) throw new Error(`@move answered ${body.status}: ${body.text}`);
    for (const { source, target } of body.body as unknown as { source: string; target: string }[])
      this.relocated(source, target);
  }

  /** Takes a workflow transition on an object; it must be acknowledged. */
  async transitionAcked(object: LedgerObject, transition: string): Promise<void> {
    await this.suite.expectHttp(200, 'POST', `${object.url}/@workflow/${transition}`, {});
  }

  /** An object, and everything the ledger knows inside it, now lives at `to`. */
  private relocated(from: string, to: string): void {
    for (const object of [...this.objects.values()]) {
      if (object.url !== from && !object.url.startsWith(`${from}/`)) continue;
      this.objects.delete(object.url);
      object.url = to + object.url.slice(from.length);
      this.objects.set(object.url, object);
    }
  }

  /** The store's view: everything below the ledger's folder, as the listings answer it. */
  storeView(): Promise<Summary[]> {
    return storeTree(this.suite, this.folderUrl);
  }

  /** The index's view of the same folder: @search below it. */
  indexView(auth?: string | null): Promise<Summary[]> {
    return indexTree(this.suite, this.folderUrl, auth);
  }

  /**
   * Every acknowledged write is in the store (read through the listings and a GET of each object),
   * nothing refused is, and nothing is there that no write made. Returns the store's view.
   */
  async verifyStore(): Promise<Summary[]> {
    const store = await this.storeView();
    const problems: string[] = [];
    const listed = new Map(store.map((item) => [item['@id'], item]));
    for (const object of this.objects.values()) {
      const item = listed.get(object.url);
      const allowed = [object.title, ...object.uncertainTitles];
      const single = await this.suite.http('GET', object.url);
      if (object.deleted === 'yes') {
        if (item) problems.push(`${object.url} was deleted (acknowledged) but is listed: ${JSON.stringify(item)}`);
        if (single.status !== 404) problems.push(`GET ${object.url}, deleted, answered ${single.status}`);
        continue;
      }
      if (object.deleted === 'maybe' && !item && single.status === 404) continue;
      const refused = (title: string) => (object.refusedTitles.includes(title) ? ' (a refused write)' : '');
      if (!item) problems.push(`${object.url} (acknowledged, "${object.title}") is not in the store's listings`);
      else if (!allowed.includes(item.title))
        problems.push(
          `${object.url} is listed as "${item.title}"${refused(item.title)}, expected one of ${JSON.stringify(allowed)}`,
        );
      if (single.status !== 200) problems.push(`GET ${object.url} answered ${single.status}: ${single.text}`);
      else if (!allowed.includes(single.body.title))
        problems.push(
          `GET ${object.url} shows "${single.body.title}"${refused(single.body.title)}, expected one of ${JSON.stringify(allowed)}`,
        );
    }
    for (const item of store) {
      if (this.objects.has(item['@id'])) continue;
      if (this.refusedCreates.has(item.title))
        problems.push(`a refused create is in the store: ${JSON.stringify(item)}`);
      else if (!this.uncertainCreates.has(item.title))
        problems.push(`an object no write of the test made is in the store: ${JSON.stringify(item)}`);
    }
    if (problems.length > 0) {
      throw new Error(`The store does not hold what was acknowledged (${this.describe()}):\n${problems.join('\n')}`);
    }
    return store;
  }

  /** Polls until @search below the folder answers exactly the store's listing (ids and summaries). */
  untilIndexConverged(timeoutMs = CONVERGE_TIMEOUT_MS): Promise<Summary[]> {
    return untilIndexMatchesStore(this.suite, this.folderUrl, timeoutMs, this.describe());
  }

  /** Both checks: the store holds every acknowledged write, and the index converges on the store. */
  async verify(timeoutMs = CONVERGE_TIMEOUT_MS): Promise<Summary[]> {
    await this.verifyStore();
    return this.untilIndexConverged(timeoutMs);
  }

  describe(): string {
    const { acked, refused, uncertain } = this.counts;
    return `${this.objects.size} objects; writes: ${acked} acknowledged, ${refused} refused, ${uncertain} uncertain`;
  }

  private async attempt(method: string, url: string, body?: unknown): Promise<HttpResult | null> {
    try {
      return await this.suite.http(method, url, body);
    } catch {
      // No answer (connection refused or reset, timeout): uncertain.
      return null;
    }
  }

  private count(result: HttpResult | null): Outcome {
    const outcome = outcomeOf(result?.status ?? null);
    this.counts[outcome]++;
    return outcome;
  }
}

/**
 * A varied history in a folder of its own, every write acknowledged (a fault-free phase): a subfolder, documents
 * and news items, title changes, publications, a rename, a move, a re-ordering and deletions. Waits until the index
 * has converged on it.
 */
export async function writeHistory(suite: DistributedSuite, label: string): Promise<WriteLedger> {
  const ledger = await WriteLedger.inNewFolder(suite, label);
  const acked = async (write: Promise<Outcome>, what: string) => {
    const outcome = await write;
    if (outcome !== 'acked') throw new Error(`${what} was ${outcome}`);
  };
  const subTitle = ledger.nextTitle('sub');
  await acked(ledger.create(subTitle, 'Folder'), 'creating the subfolder');
  const sub = ledger.byTitle(subTitle);
  for (let i = 0; i < 8; i++) await acked(ledger.create(ledger.nextTitle('doc')), 'a create');
  for (let i = 0; i < 2; i++) await acked(ledger.create(ledger.nextTitle('news'), 'News Item'), 'a create');
  for (let i = 0; i < 3; i++)
    await acked(ledger.create(ledger.nextTitle('inner'), 'Document', {}, sub.url), 'a create');
  const docs = ledger.live().filter((object) => object !== sub && !object.url.startsWith(`${sub.url}/`));
  for (const round of [1, 2]) {
    for (const doc of docs) await acked(ledger.patchTitle(doc, ledger.nextTitle(`v${round}`)), 'a title change');
  }
  for (const doc of docs.slice(0, 3)) await ledger.transitionAcked(doc, 'publish');
  await ledger.renameAcked(docs[3], `renamed-${ledger.word}`);
  await ledger.moveAcked([docs[4], docs[5]], sub.url);
  const last = docs[docs.length - 1].url;
  await suite.expectHttp(204, 'PATCH', ledger.folderUrl, {
    ordering: { obj_id: last.slice(last.lastIndexOf('/') + 1), delta: 'top' },
  });
  for (const doc of docs.slice(6, 8)) await acked(ledger.remove(doc), 'a deletion');
  await ledger.verify();
  return ledger;
}

/**
 * A stream of writes into a ledger from `concurrency` clients: creates, title changes and deletions, never two at
 * once on one object. `run(n)` makes n more writes; `untilAttempted(n)` waits until n writes have been started,
 * so a fault can be injected mid-stream at a point fixed by the count, not by the clock.
 */
export class WriteStream {
  attempted = 0;
  private readonly busy = new Set<string>();
  private readonly random: () => number;
  private readonly waiters: { count: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  private runs = 0;

  constructor(
    private readonly ledger: WriteLedger,
    private readonly options: { concurrency?: number; seed?: number; label?: string } = {},
  ) {
    this.random = seededRandom(options.seed ?? 1);
  }

  /** Makes `count` more writes, `concurrency` at a time. */
  async run(count: number): Promise<void> {
    let left = count;
    const client = async () => {
      while (left > 0) {
        left--;
        await this.writeOne();
      }
    };
    this.runs++;
    try {
      await Promise.all(Array.from({ length: this.options.concurrency ?? 4 }, client));
    } finally {
      this.runs--;
      if (this.runs === 0) {
        for (const waiter of this.waiters.splice(0))
          waiter.reject(new Error(`The stream ended after ${this.attempted} writes, before ${waiter.count}`));
      }
    }
  }

  untilAttempted(count: number): Promise<void> {
    if (this.attempted >= count) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ count, resolve, reject }));
  }

  private async writeOne(): Promise<void> {
    const label = this.options.label ?? 'Doc';
    const idle = this.ledger.live().filter((object) => !this.busy.has(object.url));
    const roll = this.random();
    const target = idle.length > 0 ? idle[Math.floor(this.random() * idle.length)] : undefined;
    this.started();
    if (!target || idle.length < 3 || roll < 0.45) {
      await this.ledger.create(this.ledger.nextTitle(label));
      return;
    }
    this.busy.add(target.url);
    try {
      if (roll < 0.9) await this.ledger.patchTitle(target, this.ledger.nextTitle(label));
      else await this.ledger.remove(target);
    } finally {
      this.busy.delete(target.url);
    }
  }

  private started(): void {
    this.attempted++;
    for (const waiter of [...this.waiters]) {
      if (this.attempted >= waiter.count) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }
}
