/**
 * The round trip of the sample Plone export (test/fixtures/plone-export) through this suite: what an export
 * written after importing it must hold, equal to the sample but for the members named with why. Used by
 * `npm run export` (a folder) and `@export` (a ZIP) alike.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './processes';

export const SAMPLE = join(ROOT, 'test', 'fixtures', 'plone-export');

/**
 * Members of data.json that may differ after a round trip through this suite, each with why. Every other member
 * the sample gives must come back equal.
 */
const MAY_DIFFER: Record<string, string> = {
  layout: 'the view is the client’s (Volto’s) choice here; not carried (reported)',
  lock: 'the lock state at the moment of the export, not content',
  version: 'a serializer marker ("current"), not content',
  versioning_enabled: 'a type keeps versions here or not; not a member of the object',
  'exportimport.conversation': 'a copy of the object’s comments: they travel in discussions.json (compared whole)',
  'exportimport.constrains': 'per-folder type restrictions are not supported here (reported)',
  parent: 'this export writes only the parent’s @id and UID (all an importer reads), not its summary',
};

/**
 * Sources of the sample's relations: the import's write of each relation dates them (reported by the import) and,
 * on a type that keeps versions, makes their latest version (its note and author are the import's).
 */
const RELATION_SOURCES = new Set(['3d4e5f607182493ab4c5d6e7f8091a2b', '1b2c3d4e5f60471829a3b4c5d6e7f809']);

/**
 * Members of an earlier version (in `exportimport.versions`) that may differ, with why; the version's own
 * members are compared as an object's are.
 */
const VERSION_MAY_DIFFER: Record<string, string> = {
  review_state: 'a version here keeps the content, not the workflow state it had then',
};

/**
 * Members of an object without earlier versions that may differ, with why: its history here starts with the
 * import's initial version, whose note and author these are.
 */
const UNVERSIONED_MAY_DIFFER = new Set(['changeNote', 'changeActor']);

/** The sample's values as this suite gives them back: `##DEFAULT##` is "no language of its own"; dates as instants. */
function comparable(item: Record<string, unknown>, skipped: object = MAY_DIFFER): Record<string, unknown> {
  const versions = (item['exportimport.versions'] ?? {}) as Record<string, Record<string, unknown>>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    if (key in skipped || value === null || value === '##DEFAULT##') continue;
    if (key === 'exportimport.versions') {
      out[key] = Object.fromEntries(
        Object.entries(versions).map(([id, version]) => [id, comparable(version, VERSION_MAY_DIFFER)]),
      );
      continue;
    }
    if (skipped === MAY_DIFFER && UNVERSIONED_MAY_DIFFER.has(key) && !Object.keys(versions).length) continue;
    const isDate = typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(value);
    // Plone writes `effective` and `expires` without an offset: UTC.
    out[key] = isDate ? new Date(/[+-]\d\d:\d\d$|Z$/.test(value) ? value : `${value}Z`).toISOString() : value;
  }
  return out;
}

/**
 * Expects the export whose files `written` reads (by their `/`-separated path from the export's root) to give
 * the sample back: every object, file, local role and position, equal but for the members named above.
 */
export function expectSampleWrittenBack(written: (path: string) => Buffer): void {
  const json = (read: (path: string) => Buffer, path: string) =>
    JSON.parse(read(path).toString('utf8')) as Record<string, Record<string, unknown>>;
  const fromSample = (path: string) => readFileSync(join(SAMPLE, ...path.split('/')));
  const sample = json(fromSample, 'content/__metadata__.json');
  const back = json(written, 'content/__metadata__.json');
  expect(back.__version__).toBe('1.0.0');
  // Both list a container before what it holds; the order among siblings may differ (path order here).
  expect([...(back._data_files_ as unknown as string[])].sort()).toEqual(
    [...(sample._data_files_ as unknown as string[])].sort(),
  );
  expect(back._blob_files_).toEqual(sample._blob_files_);
  expect(back.ordering).toEqual(sample.ordering);
  // The site root's roles are this site's own (its root is kept at import).
  const { plone_site_root: _root, ...objectRoles } = sample.local_roles;
  expect(back.local_roles).toEqual(objectRoles);
  // Relations travel in relations.json (as plone.exportimport writes them), not in their source's data.json.
  const relations = (read: (path: string) => Buffer) =>
    (JSON.parse(read('relations.json').toString('utf8')) as Record<string, string>[])
      .map((r) => `${r.from_uuid} ${r.from_attribute} ${r.to_uuid}`)
      .sort();
  expect(relations(written)).toEqual(relations(fromSample));
  // Comments: every member the sample gives, their threads in the same order.
  expect(json(written, 'discussions.json')).toEqual(json(fromSample, 'discussions.json'));
  for (const blob of sample._blob_files_ as unknown as string[])
    expect(written(`content/${blob}`)).toEqual(fromSample(`content/${blob}`));

  for (const name of readdirSync(join(SAMPLE, 'content')).filter((n) => /^[0-9a-f]{32}$/.test(n))) {
    const { modified, changeNote, changeActor, ...item } = comparable(json(written, `content/${name}/data.json`));
    const {
      modified: modifiedBefore,
      changeNote: noteBefore,
      changeActor: actorBefore,
      ...before
    } = comparable(json(fromSample, `content/${name}/data.json`));
    expect({ name, ...item }).toMatchObject({ name, ...before });
    const versions = (of: Record<string, unknown>) => Object.keys(of['exportimport.versions'] as object);
    if (RELATION_SOURCES.has(name)) {
      expect({ name, versions: versions(item) }).toMatchObject({
        name,
        versions: expect.arrayContaining(versions(before)),
      });
      continue;
    }
    expect({ name, versions: versions(item) }).toEqual({ name, versions: versions(before) });
    expect({ name, modified, changeNote, changeActor }).toMatchObject({
      name,
      modified: modifiedBefore,
      ...(noteBefore === undefined ? {} : { changeNote: noteBefore }),
      ...(actorBefore === undefined ? {} : { changeActor: actorBefore }),
    });
  }
  expect(json(written, 'content/plone_site_root/data.json')['@type']).toBe('Plone Site');
}

type Principals = {
  groups: Record<string, unknown>[];
  members: Record<string, unknown>[];
};

/**
 * Expects principals.json, redirects.json and translations.json of the export `written` reads to give the
 * sample's back, for what is carried: every group and member the sample names, with its properties, roles and
 * memberships (this site's own principals besides), and no password (a Plone hash cannot be made from ours).
 * The sample lists no group's members, which Plone writes from the members' groups: they are compared so.
 * `translations` is what translations.json must hold: the sample's on a multilingual site, none on another.
 */
export function expectSidesWrittenBack(
  written: (path: string) => Buffer,
  { multilingual }: { multilingual: boolean },
): void {
  const json = (read: (path: string) => Buffer, path: string) => JSON.parse(read(path).toString('utf8')) as unknown;
  const fromSample = (path: string) => readFileSync(join(SAMPLE, ...path.split('/')));
  const sample = json(fromSample, 'principals.json') as Principals;
  const back = json(written, 'principals.json') as Principals;
  expect(Object.keys(back).sort()).toEqual(['groups', 'members']);
  for (const { principals: _listed, ...group } of sample.groups) {
    const members = sample.members
      .filter((member) => (member.groups as string[]).includes(group.groupid as string))
      .map((member) => member.username)
      .sort();
    expect(back.groups).toContainEqual({ ...group, principals: members });
  }
  // plone.exportimport writes a member's groups sorted (its exporter's tests check it); the sample's are not.
  for (const { password: _hash, ...member } of sample.members)
    expect(back.members).toContainEqual({
      ...member,
      groups: [...(member.groups as string[])].sort(),
      login_name: member.username,
    });
  for (const member of back.members) expect(member).not.toHaveProperty('password');
  expect(json(written, 'redirects.json')).toEqual(json(fromSample, 'redirects.json'));
  const translations = json(written, 'translations.json') as { translations: Record<string, string> }[];
  if (multilingual) expect(translations).toEqual(expect.arrayContaining(json(fromSample, 'translations.json') as []));
  else expect(translations).toEqual([]);
}
