import { startTestSuite, type TestSuite } from '../support/embedded-suite';
import { upload } from '../support/images';
import { blobsOnDisk } from '../support/blobs';

/**
 * A PATCH is checked in full before anything is written, then the object's own changes (fields, new id,
 * new order of its items) are one atomic write: a request that fails changes nothing.
 */
describe('a PATCH that fails changes nothing', () => {
  let t: TestSuite;
  const json = async (response: Response) => (await response.json()) as Record<string, any>;

  async function create(container: string, body: Record<string, unknown>): Promise<Record<string, any>> {
    const response = await t.request('POST', container, { body });
    if (response.status !== 201) throw new Error(`POST ${container}: ${response.status} ${await response.text()}`);
    return json(response);
  }

  async function childIds(folder: string): Promise<string[]> {
    const body = await json(await t.request('GET', `${folder}?b_size=100`));
    return body.items.map((item: { '@id': string }) => item['@id'].split('/').pop());
  }

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '500' });
    await create('/', { '@type': 'Folder', id: 'f', title: 'F' });
    await create('/f', {
      '@type': 'File',
      id: 'file',
      title: 'A file',
      file: upload(Buffer.from('the bytes'), 'a.txt', 'text/plain'),
    });
    await create('/f', { '@type': 'Document', id: 'doc', title: 'Doc' });
    await create('/f', { '@type': 'Document', id: 'other', title: 'Other' });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('a rename with a bad upload is 400, and the object keeps its id, fields and file', async () => {
    const blobs = blobsOnDisk(t.dataDir);
    const response = await t.request('PATCH', '/f/file', {
      body: { id: 'renamed', title: 'Renamed', file: { data: '!!!', encoding: 'base64' } },
    });
    expect(response.status).toBe(400);
    expect((await json(response)).errors).toEqual([expect.objectContaining({ field: 'file.data' })]);

    expect((await t.request('GET', '/f/renamed')).status).toBe(404);
    const file = await json(await t.request('GET', '/f/file'));
    expect(file).toMatchObject({ id: 'file', title: 'A file', file: { filename: 'a.txt', size: 9 } });
    expect((await json(await t.request('GET', '/f/file/@aliases'))).items).toEqual([]);
    expect(Buffer.from(await (await t.request('GET', '/f/file/@@download/file')).arrayBuffer()).toString()).toBe(
      'the bytes',
    );
    expect(blobsOnDisk(t.dataDir)).toEqual(blobs);
  });

  it('a re-ordering with an invalid field is 400, and the items keep their order', async () => {
    const before = await childIds('/f');
    expect(before).toEqual(['file', 'doc', 'other']);

    const unresolvable = await t.request('PATCH', '/f', {
      body: { ordering: { obj_id: 'other', delta: 'top' }, relatedItems: ['/no/such/object'] },
    });
    expect(unresolvable.status).toBe(400);
    expect((await json(unresolvable)).errors).toEqual([expect.objectContaining({ field: 'relatedItems.0' })]);

    const mistyped = await t.request('PATCH', '/f', { body: { sort: { on: 'id', order: 'descending' }, title: 42 } });
    expect(mistyped.status).toBe(400);

    const renamedAndUnsortable = await t.request('PATCH', '/f', { body: { id: 'g', sort: { on: 'colour' } } });
    expect(renamedAndUnsortable.status).toBe(400);

    expect(await childIds('/f')).toEqual(before);
    expect((await json(await t.request('GET', '/f'))).title).toBe('F');
  });

  it('a rename to an id that is taken is 409, and no field changes', async () => {
    const response = await t.request('PATCH', '/f/doc', {
      body: { id: 'other', title: 'Changed', description: 'Changed too' },
    });
    expect(response.status).toBe(409);
    expect(await json(await t.request('GET', '/f/doc'))).toMatchObject({ id: 'doc', title: 'Doc', description: '' });
    expect((await json(await t.request('GET', '/f/other'))).title).toBe('Other');
  });

  it('a valid PATCH renames, re-orders and changes fields in one request; the items follow the new path', async () => {
    const response = await t.request('PATCH', '/f', {
      body: { id: 'g', title: 'G', ordering: { obj_id: 'other', delta: 'top' } },
      headers: { Prefer: 'return=representation' },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ '@id': t.suite.publicUrl + '/g', title: 'G' });
    expect(body.items.map((item: { '@id': string }) => item['@id'].split('/').pop())).toEqual(['other', 'file', 'doc']);
    // The old path answers a redirect to the new one (addendum §8).
    const old = await fetch(t.url('/f'), { redirect: 'manual' });
    expect([old.status, old.headers.get('location')]).toEqual([302, t.suite.publicUrl + '/g']);
    expect((await t.request('GET', '/g/file')).status).toBe(200);
    expect((await json(await t.request('GET', '/g/@aliases'))).items.map((i: any) => i.path)).toEqual(['/f']);
  });
});
