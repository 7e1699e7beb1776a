/**
 * What the fuzzer compares before and after a batch of requests, read through the API as the administrator:
 * every content object (its fields and its local roles), the catalog (`@search` of everything), the users,
 * the groups and the registry. Each entry has a key (`content:/folder/doc`, `user:fuzz-member`) so that the
 * entries an accepted write may have changed can be left out of the comparison, and nothing else.
 */
import type { FuzzSuite } from './suite';

export type Snapshot = Map<string, string>;

/** Members of a content GET that show other objects or the time rather than the object (see `scopeOf`). */
const VOLATILE = new Set(['@components', 'items', 'items_total', 'batching', 'next_item', 'previous_item', 'lock']);
/**
 * A content GET without its volatile members, and without the names shown beside a working copy (its creator's
 * full name is read from identity when the object is, so a write to that user changes it; the user's own entry
 * records that change).
 */
function withoutLiveNames(doc: Record<string, unknown>): Record<string, unknown> {
  const kept = Object.fromEntries(Object.entries(doc).filter(([key]) => !VOLATILE.has(key)));
  for (const member of ['working_copy', 'working_copy_of']) {
    const reference = kept[member];
    if (reference && typeof reference === 'object') {
      kept[member] = Object.fromEntries(Object.entries(reference).filter(([key]) => key !== 'creator_name'));
    }
  }
  return kept;
}

/** Enough for any tree the fuzzer grows; a larger one is cut (and said so in the snapshot). */
const MAX_OBJECTS = 400;

export async function snapshot(suite: FuzzSuite): Promise<Snapshot> {
  const state: Snapshot = new Map();
  const base = suite.url('');
  const pathOf = (id: string) => decodePath(id.startsWith(base) ? id.slice(base.length) || '/' : id);
  const read = async (path: string) => {
    const answer = await suite.call('GET', path);
    if (answer.status !== 200)
      throw new Error(`snapshot: GET ${path} answered ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };

  // The tree, walked through the folders' items.
  const pending = ['/'];
  let seen = 0;
  while (pending.length > 0) {
    const path = pending.shift() as string;
    if (++seen > MAX_OBJECTS) {
      state.set('content:(cut)', String(MAX_OBJECTS));
      break;
    }
    const doc = await read(`${encodePath(path)}?b_size=100000`);
    state.set(`content:${path}`, stable(withoutLiveNames(doc)));
    for (const item of (doc.items ?? []) as Array<{ '@id': string }>) pending.push(pathOf(item['@id']));
    const sharing = await read(`${encodePath(path)}/@sharing`);
    state.set(`sharing:${path}`, stable(sharing));
  }

  const found = await read('/@search?b_size=100000&sort_on=path');
  for (const item of found.items as Array<{ '@id': string }>) state.set(`search:${pathOf(item['@id'])}`, stable(item));
  state.set('search:(total)', String(found.items_total));

  for (const user of (await read('/@users?limit=100000')) as Array<{ id: string }>)
    state.set(`user:${user.id}`, stable(user));
  for (const group of (await read('/@groups?limit=100000')) as Array<{ id: string }>)
    state.set(`group:${group.id}`, stable(group));

  let page: string | undefined = '/@registry?b_size=1000';
  while (page) {
    const records = await read(page);
    for (const record of records.items as Array<{ name: string }>) state.set(`registry:${record.name}`, stable(record));
    page = records.batching?.next ? pathOf(records.batching.next) : undefined;
  }
  return state;
}

/**
 * What an accepted write may change, as key prefixes: a content write everything below its context's parent
 * (a rename, a removal or a working copy changes the siblings too), `@copy` and `@move` the whole tree, a write
 * to users or groups every user, group and local-role listing, a registry write the registry.
 */
export function scopeOf(service: string, endpoint: string, context: string[]): string[] {
  if (service === 'identity') {
    return endpoint === 'users' || endpoint === 'groups' ? ['user:', 'group:', 'sharing:'] : [];
  }
  if (service === 'config') return ['registry:'];
  if (service !== 'content') return [];
  const all = ['content:', 'sharing:', 'search:'];
  if (endpoint === 'copy' || endpoint === 'move' || context.length <= 1) return all;
  const parent = '/' + context.slice(0, -1).join('/');
  return [...all.map((kind) => `${kind}${parent}`), 'search:(total)'];
}

/** Keys whose value differs (or that came or went), except under the given prefixes. */
export function differences(before: Snapshot, after: Snapshot, excluded: readonly string[]): string[] {
  const covered = (key: string) =>
    excluded.some((prefix) => {
      if (!key.startsWith(prefix)) return false;
      // `content:/folder` covers `content:/folder/doc`, not `content:/folder2`.
      const rest = key.slice(prefix.length);
      return prefix.endsWith(':') || rest === '' || rest.startsWith('/') || prefix.endsWith('/');
    });
  const keys = new Set([...before.keys(), ...after.keys()]);
  const changed: string[] = [];
  for (const key of keys) {
    if (covered(key)) continue;
    if (before.get(key) !== after.get(key)) changed.push(key);
  }
  return changed.sort();
}

export function describeDifference(before: Snapshot, after: Snapshot, key: string): string {
  const clip = (text: string | undefined) =>
    text === undefined ? '(absent)' : text.length > 600 ? `${text.slice(0, 600)}…` : text;
  return `${key}\n    before: ${clip(before.get(key))}\n    after:  ${clip(after.get(key))}`;
}

/** JSON with members in a fixed order, so that equal values have equal text. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (!inner || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    // A null prototype, so that a member named `__proto__` stays a member.
    const sorted: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
    return sorted;
  });
}

function decodePath(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');
}

function encodePath(path: string): string {
  return path === '/' ? '/' : path.split('/').map(encodeURIComponent).join('/');
}
