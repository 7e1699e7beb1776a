import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ReadItem, PloneExport, isBlobValue } from '../src/exchange/plone-export';

const SAMPLE = join(__dirname, '../../../test/fixtures/plone-export');

async function readAll(exported: PloneExport): Promise<ReadItem[]> {
  const items: ReadItem[] = [];
  for await (const item of exported.items()) items.push(item);
  return items;
}

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('the sample Plone 6 export (test/fixtures/plone-export)', () => {
  let exported: PloneExport;
  let items: ReadItem[];

  beforeAll(async () => {
    exported = await PloneExport.open(SAMPLE);
    items = await readAll(exported);
  });

  it('holds every kind of item, the site root first and each container before what it holds', () => {
    expect(items[0]).toMatchObject({ isSiteRoot: true, path: '/' });
    expect(new Set(items.map((i) => i.item['@type']))).toEqual(
      new Set(['Plone Site', 'Folder', 'Document', 'News Item', 'Event', 'Link', 'File', 'Image', 'Collection']),
    );
    const seen = new Set<string>(['/']);
    for (const { path, isSiteRoot } of items.slice(1)) {
      expect(isSiteRoot).toBe(false);
      expect(seen).toContain(path.slice(0, path.lastIndexOf('/')) || '/');
      seen.add(path);
    }
  });

  it('has blobs whose bytes match their declared sizes', async () => {
    const blobs = items.flatMap(({ item }) => Object.values(item).filter(isBlobValue));
    expect(blobs.map((b) => b['content-type']).sort()).toEqual(['image/png', 'text/plain']);
    for (const blob of blobs) expect((await bytesOf(exported.blob(blob.blob_path))).length).toBe(blob.size);
  });

  it('refers, in every side file, only to objects it holds', async () => {
    const uids = new Set(items.map((i) => i.item.UID));
    const referenced = [
      ...Object.keys(await exported.discussions()),
      ...(await exported.relations()).flatMap((r) => [r.from_uuid, r.to_uuid]),
      ...(await exported.translations()).flatMap((t) => [t.canonical, ...Object.values(t.translations)]),
      ...Object.keys(exported.metadata.local_roles).filter((uid) => uid !== 'plone_site_root'),
      ...Object.keys(exported.metadata.ordering),
    ];
    expect(referenced.length).toBeGreaterThan(20);
    for (const uid of referenced) expect(uids).toContain(uid);
    const principals = await exported.principals();
    expect(principals.members.map((m) => m.username)).toEqual(['jane', 'joe']);
    expect(principals.groups.map((g) => g.groupid)).toContain('editors');
    expect(Object.keys(await exported.redirects())).toHaveLength(2);
  });

  it('keeps workflow history and an earlier version of the team page', () => {
    const team = items.find((i) => i.path === '/about/team')!.item;
    expect(team.review_state).toBe('published');
    expect(team.workflow_history.simple_publication_workflow.map((e) => e.review_state)).toEqual([
      'private',
      'published',
    ]);
    expect(Object.keys(team['exportimport.versions'])).toEqual(['0']);
  });
});

describe('a damaged export', () => {
  let folder: string;
  const content = (...parts: string[]) => join(folder, 'content', ...parts);
  const LINK_UID = '5f60718293a4452cd6e7f8091a2b3c4d';
  const FILE_UID = '60718293a4b5463de7f8091a2b3c4d5e';

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'plone-export-'));
    await cp(SAMPLE, folder, { recursive: true });
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  async function edit(file: string, change: (json: Record<string, unknown>) => void): Promise<void> {
    const json = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    change(json);
    await writeFile(file, JSON.stringify(json));
  }

  const failure = () =>
    PloneExport.open(folder)
      .then(readAll)
      .then(
        () => null,
        (error: Error) => error.message,
      );

  it('without metadata is not an export', async () => {
    await rm(content('__metadata__.json'));
    expect(await failure()).toBe('content/__metadata__.json: missing: not an export');
  });

  it('refuses a blob path that leaves the content folder', async () => {
    await edit(content('__metadata__.json'), (json) => {
      json._blob_files_ = [`${FILE_UID}/file/../../../../etc/passwd`];
    });
    expect(await failure()).toMatch(/^content\/__metadata__.json: _blob_files_.0: not <UID>\/<field>\/<filename>$/);
  });

  it('refuses a file field whose blob is not listed', async () => {
    await edit(content('__metadata__.json'), (json) => {
      json._blob_files_ = [];
    });
    expect(await failure()).toBe(`content/${FILE_UID}/data.json: file.blob_path is not listed in __metadata__.json`);
  });

  it('refuses an object whose UID is not its folder, without echoing its content', async () => {
    await edit(content(LINK_UID, 'data.json'), (json) => {
      json.UID = 'f'.repeat(32);
      json.title = 'x'.repeat(10_000);
    });
    const message = await failure();
    expect(message).toBe(`content/${LINK_UID}/data.json: UID ${'f'.repeat(32)} is not its folder's name`);
  });

  it('refuses a data file that is listed but missing, or not JSON', async () => {
    await rm(content(LINK_UID, 'data.json'));
    expect(await failure()).toBe(`content/${LINK_UID}/data.json: listed in __metadata__.json but missing`);
    await writeFile(content(LINK_UID, 'data.json'), '{"@id": ');
    expect(await failure()).toBe(`content/${LINK_UID}/data.json: not JSON`);
  });

  it('refuses a malformed side file', async () => {
    await writeFile(join(folder, 'relations.json'), JSON.stringify([{ from_uuid: 'nope' }]));
    const exported = await PloneExport.open(folder);
    await expect(exported.relations()).rejects.toThrow(/^relations.json: 0\.from_attribute: Required$/);
  });
});
