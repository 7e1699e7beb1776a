import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/** The JSON text of a lone high surrogate: what `JSON.parse` turns into an unpaired U+D800. */
const LONE = '\\ud800';

/** Hostile input (security test findings): no request may stop a service, or the service after it. */
describe('hostile input through the gateway', () => {
  let t: TestSuite;
  const json = async (response: Response) => (await response.json()) as Record<string, any>;

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '300' });
    const created = await t.request('POST', '/', { body: { '@type': 'Document', id: 'doc', title: 'Doc' } });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await t.stop();
  });

  /** A 4xx with the JSON body of addendum §4, or a success; never a 5xx. */
  async function expectAnswered(response: Response): Promise<Record<string, any>> {
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await json(response);
    if (response.status >= 400) expect(body).toMatchObject({ type: expect.any(String), message: expect.any(String) });
    return body;
  }

  async function expectStillServing(): Promise<void> {
    const root = await t.request('GET', '/doc');
    expect(root.status).toBe(200);
    expect((await json(root)).title).toBe('Doc');
  }

  describe('lone surrogates (gRPC status details are percent-encoded with encodeURI)', () => {
    it.each([
      ['POST /', 'POST', '/', `{"@type":"${LONE}"}`],
      ['POST / with a lone surrogate in a field name', 'POST', '/', `{"@type":"Document","${LONE}":1}`],
      ['PATCH with a lone-surrogate key', 'PATCH', '/doc', `{"${LONE}":"x"}`],
      ['PATCH with a lone-surrogate value', 'PATCH', '/doc', `{"language":"${LONE}"}`],
      ['@workflow with a lone-surrogate comment', 'POST', '/doc/@workflow/publish', `{"comment":"${LONE}"}`],
      ['@workflow with a lone-surrogate key', 'POST', '/doc/@workflow/retract', `{"${LONE}":"x"}`],
      ['@workflow with a lone-surrogate transition', 'POST', `/doc/@workflow/%ED%A0%80`, '{}'],
      ['PATCH @registry with a lone-surrogate key', 'PATCH', '/@registry', `{"${LONE}":"x"}`],
      ['PATCH @registry with a lone-surrogate value', 'PATCH', '/@registry', `{"plone.site_title":{"${LONE}":1}}`],
    ])('%s answers and the service keeps answering', async (_name, method, path, body) => {
      await expectAnswered(await t.request(method, path, { body }));
      await expectStillServing();
    });

    it('a query cannot carry a lone surrogate (invalid UTF-8 is decoded as U+FFFD) and is answered', async () => {
      for (const query of ['b_size=%ED%A0%80', 'expand=%ED%A0%80', 'b_start=0&b_size=1&x%ED%A0%80=%ED%A0%80']) {
        await expectAnswered(await t.request('GET', `/?${query}`));
        await expectAnswered(await t.request('GET', `/@registry?${query}`));
        await expectAnswered(await t.request('GET', `/@search?${query}`));
      }
      await expectStillServing();
    });

    it('a file with a lone-surrogate filename is stored and downloaded', async () => {
      const data = Buffer.from('hello').toString('base64');
      const body = `{"@type":"File","id":"lone","title":"Lone","file":{"data":"${data}","encoding":"base64","filename":"a${LONE}b.txt","content-type":"text/plain"}}`;
      await expectAnswered(await t.request('POST', '/', { body }));
      const download = await t.request('GET', '/lone/@@download/file');
      expect(download.status).toBe(200);
      expect(await download.text()).toBe('hello');
      expect(download.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''a%EF%BF%BDb.txt");
      await expectStillServing();
    });
  });

  describe('input echoed in errors (gRPC trailers are bounded by the peer, ~64 KiB)', () => {
    const BOUND = 16 * 1024;

    async function expectBoundedBadRequest(request: Promise<Response>): Promise<void> {
      const response = await request;
      const text = await response.text();
      expect(response.status).toBe(400);
      expect(text.length).toBeLessThan(BOUND);
      expect(JSON.parse(text)).toMatchObject({ type: 'BadRequest', message: expect.any(String) });
    }

    const hostile = (): Promise<Response>[] => [
      t.request('GET', `/doc?expand=${Array.from({ length: 400 }, (_, i) => `no-such-component-${i}`).join(',')}`),
      t.request('POST', '/', { body: { '@type': 'x'.repeat(70_000), title: 'x' } }),
      t.request('PATCH', '/doc', {
        body: { subjects: Array.from({ length: 1000 }, (_, i) => `${i}-${'s'.repeat(300)}`) },
      }),
      t.request('PATCH', '/doc', {
        body: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`${i}-${'k'.repeat(200)}`, 1])),
      }),
      t.request('PATCH', '/@registry', {
        body: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`${i}-${'r'.repeat(200)}`, 1])),
      }),
    ];

    it('each answers 400 with a bounded body', async () => {
      for (const request of hostile()) await expectBoundedBadRequest(request);
      await expectStillServing();
    });

    it('an innocent request sent at the same time is answered', async () => {
      const innocent = Array.from({ length: 5 }, () => t.request('GET', '/doc'));
      const [answers] = await Promise.all([Promise.all(innocent), ...hostile().map(expectBoundedBadRequest)]);
      for (const answer of answers) expect(answer.status).toBe(200);
      await expectStillServing();
    });
  });
});
