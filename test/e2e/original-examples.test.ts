import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * What the original platform's documented examples show (issue 30) and its URL management (issue 26): CSV export
 * and import of users and aliases, the alias listings, redirects from moved content. Each runs with the neutral
 * names and with ORIGINAL_IDENTIFIERS on.
 */
const json = async (response: Response) => (await response.json()) as any;

/** A `multipart/form-data` body with one file, as a browser's form sends it. */
function csvUpload(csv: string, { field = 'file', type = 'text/csv' } = {}) {
  const form = new FormData();
  form.append(field, new Blob([csv], { type }), 'upload.csv');
  return form;
}

function examples(suite: () => TestSuite) {
  const t = () => suite();
  const upload = (path: string, form: FormData) =>
    fetch(t().url(path), {
      method: 'POST',
      headers: { Authorization: 'Basic ' + Buffer.from('admin:admin').toString('base64'), Accept: 'application/json' },
      body: form,
    });

  describe('@aliases', () => {
    beforeAll(async () => {
      const page = { '@type': 'Document', id: 'front-page', title: 'Front page' };
      expect((await t().request('POST', '/', { body: page })).status).toBe(201);
      const added = await t().request('POST', '/front-page/@aliases', {
        body: { items: [{ path: '/simple-alias', datetime: '2022-05-05T00:00:00Z' }] },
      });
      expect(added.status).toBe(204);
    });

    it('an object’s listing carries datetime, manual and redirect-to, as the site-root one does', async () => {
      const listed = await json(await t().request('GET', '/front-page/@aliases'));
      expect(listed).toEqual({
        '@id': expect.stringMatching(/\/front-page\/@aliases$/),
        items: [
          { datetime: '2022-05-05T00:00:00.000Z', manual: true, path: '/simple-alias', 'redirect-to': '/front-page' },
        ],
        items_total: 1,
      });
      const expanded = await json(await t().request('GET', '/front-page?expand=aliases'));
      expect(expanded['@components'].aliases.items).toEqual(listed.items);
      const root = await json(await t().request('GET', '/@aliases?q=/simple-alias'));
      expect(root.items).toEqual(listed.items);
    });

    it('empty filters (Volto’s URL management panel sends them) are no filters', async () => {
      const response = await t().request('GET', '/@aliases?q=&manual=&start=&end=&datetime=&b_size=10&b_start=0');
      expect(response.status).toBe(200);
      expect((await json(response)).items.map((i: any) => i.path)).toContain('/simple-alias');
      expect((await t().request('GET', '/@aliases?start=yesterday')).status).toBe(400);
    });

    it('the site root answers `Accept: text/csv` with the CSV file of every alias', async () => {
      const response = await t().request('GET', '/@aliases', { headers: { Accept: 'text/csv' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(response.headers.get('content-disposition')).toBe('attachment; filename=redirects.csv');
      const lines = (await response.text()).split('\r\n');
      expect(lines[0]).toBe('old path,new path,datetime,manual');
      expect(lines).toContain('/simple-alias,/front-page,2022/05/05 00:00:00 GMT+0,True');
    });

    it('a CSV file uploaded to the site root adds its aliases', async () => {
      const csv = 'old path,new path,datetime,manual\r\n/old-page,/front-page,2022/01/01 00:00:00 GMT+0,True\r\n';
      const response = await upload('/@aliases', csvUpload(csv));
      expect(response.status).toBe(204);
      const listed = await json(await t().request('GET', '/front-page/@aliases'));
      expect(listed.items).toContainEqual({
        datetime: '2022-01-01T00:00:00.000Z',
        manual: true,
        path: '/old-page',
        'redirect-to': '/front-page',
      });
    });

    it('a bad CSV file is 400 naming its line, and adds nothing', async () => {
      const csv = 'old path,new path\n/fine-one,/front-page\n/bad-one,/no-such-page\n';
      const response = await upload('/@aliases', csvUpload(csv));
      expect(response.status).toBe(400);
      const body = await json(response);
      expect(body.message).toMatch(/line 3/);
      const broken = await upload('/@aliases', csvUpload('old path,new path\n"/open,/front-page\n'));
      expect(broken.status).toBe(400);
      expect((await json(broken)).message).toMatch(/line 2/);
      expect((await upload('/@aliases', csvUpload('x', { type: 'image/png' }))).status).toBe(400);
      const paths = (await json(await t().request('GET', '/@aliases'))).items.map((i: any) => i.path);
      expect(paths).not.toContain('/fine-one');
    });
  });
}

describe('original examples with the neutral names', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite();
  });
  afterAll(async () => {
    await t.stop();
  });
  examples(() => t);
});

describe('original examples with ORIGINAL_IDENTIFIERS=true', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite({ ORIGINAL_IDENTIFIERS: 'true' });
  });
  afterAll(async () => {
    await t.stop();
  });
  examples(() => t);
});
