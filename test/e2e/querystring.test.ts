import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * `@querystring` and `@querystring-search` through the gateway (specification: Query-builder search,
 * Querystring configuration, Querystring index definition; addendum §7, §8): the configuration Volto's query
 * widget reads, and each operator checked by the results it selects.
 */

const OP = 'cms.app.querystring.operation.';
const basic = (user: string) => 'Basic ' + Buffer.from(`${user}:secret-${user}`).toString('base64');
const json = async (response: Response) => (await response.json()) as Record<string, any>;

describe('query builder', () => {
  let t: TestSuite;
  let folderUid: string;

  /** The site-relative paths a query-builder search answers, in order. */
  async function found(body: Record<string, unknown>, path = '', auth?: string | null): Promise<string[]> {
    const response = await t.request('POST', `${path}/@querystring-search`, { body, auth });
    const result = await json(response);
    if (response.status !== 200) throw new Error(`answered ${response.status}: ${JSON.stringify(result)}`);
    return result.items.map((item: { '@id': string }) => item['@id'].slice(t.suite.publicUrl.length) || '/');
  }

  const q = (i: string, o: string, v?: unknown) => ({ query: [{ i, o: OP + o, v }] });

  beforeAll(async () => {
    t = await startTestSuite();
    await t.adminJson('POST', '/@users', { username: 'ann', password: 'secret-ann', fullname: 'Ann' });
    await t.adminJson('POST', '/@sharing', { entries: [{ id: 'ann', roles: { Contributor: true } }] });
    folderUid = (await t.adminJson('POST', '/', { '@type': 'Folder', id: 'lib', title: 'Library' })).UID;
    await t.adminJson('POST', '/lib', {
      '@type': 'Document',
      id: 'apple',
      title: 'Apple pie',
      description: 'Sweet baking',
      subjects: ['fruit', 'dessert'],
      effective: '2020-01-10T00:00:00',
    });
    await t.adminJson('POST', '/lib', {
      '@type': 'Document',
      id: 'banana',
      title: 'Banana bread',
      subjects: ['fruit'],
      effective: '2021-06-01T00:00:00',
    });
    await t.adminJson('POST', '/lib', { '@type': 'News Item', id: 'cherry', title: 'Cherry news', subjects: ['news'] });
    await t.adminJson('POST', '/lib', { '@type': 'Folder', id: 'sub', title: 'Sub shelf' });
    await t.adminJson('POST', '/lib/sub', { '@type': 'Document', id: 'deep', title: 'Deep dive' });
    await t.adminJson('POST', '/lib/apple/@workflow/publish');
    const ann = await t.request('POST', '/', {
      body: { '@type': 'Document', id: 'anns', title: 'Ann writes' },
      auth: basic('ann'),
    });
    expect(ann.status).toBe(201);
  });
  afterAll(async () => {
    await t.stop();
  });

  describe('GET @querystring', () => {
    it('lists every index of the specification with its operators under the neutral ids', async () => {
      const body = await json(await t.request('GET', '/@querystring'));
      expect(body['@id']).toBe(`${t.suite.publicUrl}/@querystring`);
      for (const name of [
        'Creator',
        'Description',
        'SearchableText',
        'Subject',
        'Title',
        'created',
        'effective',
        'effectiveRange',
        'end',
        'expires',
        'getId',
        'getObjPositionInParent',
        'modified',
        'path',
        'portal_type',
        'review_state',
        'show_inactive',
        'start',
      ]) {
        expect(body.indexes[name]).toEqual(
          expect.objectContaining({
            title: expect.any(String),
            description: expect.any(String),
            enabled: expect.any(Boolean),
            sortable: expect.any(Boolean),
            group: expect.stringMatching(/^(Metadata|Text|Dates)$/),
            fetch_vocabulary: true,
          }),
        );
        // Objects parsed from a response belong to another realm than the test's: checked by shape.
        expect(Array.isArray(body.indexes[name].operations)).toBe(true);
        expect(typeof body.indexes[name].operators).toBe('object');
        expect(typeof body.indexes[name].values).toBe('object');
      }
      const subject = body.indexes.Subject;
      expect(subject.vocabulary).toBe('cms.app.vocabularies.Keywords');
      expect(subject.operations).toEqual([`${OP}selection.any`, `${OP}selection.all`, `${OP}selection.none`]);
      expect(subject.operators[`${OP}selection.any`]).toEqual({
        title: 'Matches any of',
        description: 'Tip: you can use * to autocomplete.',
        operation: 'cms.app.querystring.queryparser._contains',
        widget: 'MultipleSelectionWidget',
      });
      expect(body.indexes.created.operations).toHaveLength(10);
      expect(body.indexes.effectiveRange).toEqual(expect.objectContaining({ enabled: false, operations: [] }));
      expect(JSON.stringify(body)).not.toContain('plone.');
      expect(Object.keys(body.sortable_indexes).sort()).toEqual(
        Object.keys(body.indexes)
          .filter((name) => body.indexes[name].sortable)
          .sort(),
      );
      expect(body.sortable_indexes.modified).toEqual(body.indexes.modified);
    });

    it('inlines the vocabularies: workflow states, roles, the types and tags in use', async () => {
      const { indexes } = await json(await t.request('GET', '/lib/@querystring'));
      expect(indexes.review_state.values.published).toEqual({ title: 'Published [published]' });
      expect(indexes.review_state.values.private).toEqual({ title: 'Private [private]' });
      expect(indexes.show_inactive.values.Manager).toEqual({ title: 'Manager' });
      expect(indexes.portal_type.values.Document).toEqual({ title: 'Page' });
      expect(indexes.portal_type.values['News Item']).toEqual({ title: 'News Item' });
      expect(Object.keys(indexes.Subject.values)).toEqual(expect.arrayContaining(['dessert', 'fruit', 'news']));
    });

    it('offers a caller only the tags of what it may view, and every addable type (site settings, not content)', async () => {
      const { indexes } = await json(await t.request('GET', '/@querystring', { auth: null }));
      // Only the published apple pie: its tags, not the private news item's.
      expect(Object.keys(indexes.Subject.values).sort()).toEqual(['dessert', 'fruit']);
      const types = await json(await t.request('GET', '/@vocabularies/cms.app.vocabularies.ReallyUserFriendlyTypes'));
      const addable = types.items
        .map((term: { token: string }) => term.token)
        .filter((n: string) => n !== 'Discussion Item');
      expect(Object.keys(indexes.portal_type.values).sort()).toEqual(addable.sort());
    });
  });

  describe('POST @querystring-search', () => {
    it('answers {@id, items, items_total} with summaries', async () => {
      const response = await t.request('POST', '/@querystring-search', {
        body: q('portal_type', 'selection.any', ['News Item']),
      });
      expect(response.status).toBe(200);
      expect(await json(response)).toEqual({
        '@id': `${t.suite.publicUrl}/@querystring-search`,
        items: [
          {
            '@id': `${t.suite.publicUrl}/lib/cherry`,
            '@type': 'News Item',
            description: '',
            review_state: 'private',
            title: 'Cherry news',
            type_title: 'News Item',
          },
        ],
        items_total: 1,
      });
    });

    it('selection.any / all / none on types and tags', async () => {
      const sorted = { sort_on: 'getId' };
      expect(await found({ ...q('portal_type', 'selection.any', ['Document', 'News Item']), ...sorted })).toEqual([
        '/anns',
        '/lib/apple',
        '/lib/banana',
        '/lib/cherry',
        '/lib/sub/deep',
      ]);
      expect(await found({ ...q('Subject', 'selection.any', ['dessert', 'news']), ...sorted })).toEqual([
        '/lib/apple',
        '/lib/cherry',
      ]);
      expect(await found({ ...q('Subject', 'selection.all', ['fruit', 'dessert']) })).toEqual(['/lib/apple']);
      expect(
        await found({
          query: [
            { i: 'portal_type', o: `${OP}selection.any`, v: ['Document'] },
            { i: 'Subject', o: `${OP}selection.none`, v: ['dessert'] },
          ],
          ...sorted,
        }),
      ).toEqual(['/anns', '/lib/banana', '/lib/sub/deep']);
      expect(await found(q('review_state', 'selection.any', ['published']))).toEqual(['/lib/apple']);
    });

    it('string operators: text contains, is, is not; the current user', async () => {
      expect(await found(q('Title', 'string.contains', 'BREAD'))).toEqual(['/lib/banana']);
      expect(await found(q('Title', 'string.contains', 'ban*'))).toEqual(['/lib/banana']);
      expect(await found(q('Description', 'string.contains', 'baking'))).toEqual(['/lib/apple']);
      expect(await found(q('SearchableText', 'string.contains', 'dive'))).toEqual(['/lib/sub/deep']);
      expect(await found(q('getId', 'string.is', 'banana'))).toEqual(['/lib/banana']);
      const notApple = await found({
        query: [
          { i: 'path', o: `${OP}string.absolutePath`, v: '/lib::1' },
          { i: 'getId', o: `${OP}string.isNot`, v: 'apple' },
        ],
        sort_on: 'getId',
      });
      expect(notApple).toEqual(['/lib/banana', '/lib/cherry', '/lib/sub']);
      expect(await found(q('Creator', 'string.currentUser', ''), '', basic('ann'))).toEqual(['/anns']);
      expect(await found(q('Creator', 'selection.any', ['ann']))).toEqual(['/anns']);
    });

    it('path operators: absolute with depth, relative to the context, a UID, the navigation path', async () => {
      const sorted = { sort_on: 'path' };
      expect(await found({ ...q('path', 'string.absolutePath', '/lib/sub'), ...sorted })).toEqual([
        '/lib/sub',
        '/lib/sub/deep',
      ]);
      expect(await found({ ...q('path', 'string.absolutePath', '/lib::1'), ...sorted })).toEqual([
        '/lib/apple',
        '/lib/banana',
        '/lib/cherry',
        '/lib/sub',
      ]);
      expect(await found({ ...q('path', 'string.relativePath', '..::1'), ...sorted }, '/lib/sub')).toEqual([
        '/lib/apple',
        '/lib/banana',
        '/lib/cherry',
        '/lib/sub',
      ]);
      expect(await found({ ...q('path', 'string.relativePath', '.'), ...sorted }, '/lib/sub')).toEqual([
        '/lib/sub',
        '/lib/sub/deep',
      ]);
      expect(await found({ ...q('path', 'string.absolutePath', `${folderUid}::1`), ...sorted })).toEqual([
        '/lib/apple',
        '/lib/banana',
        '/lib/cherry',
        '/lib/sub',
      ]);
      expect(await found({ ...q('path', 'string.path', '/lib/sub'), ...sorted })).toEqual([
        '/lib/sub',
        '/lib/sub/deep',
      ]);
    });

    it('date operators: before, after, between, relative days, today', async () => {
      const sorted = { sort_on: 'getId' };
      expect(await found(q('effective', 'date.lessThan', '2021-01-01'))).toEqual(['/lib/apple']);
      expect(await found(q('effective', 'date.largerThan', '2021/01/01'))).toEqual(['/lib/banana']);
      expect(await found(q('effective', 'date.between', ['2019-12-31', '2021-12-31']), '')).toEqual(
        expect.arrayContaining(['/lib/apple', '/lib/banana']),
      );
      const recent = await found({ ...q('created', 'date.largerThanRelativeDate', '1'), ...sorted });
      expect(recent).toEqual(expect.arrayContaining(['/lib/apple', '/lib/sub/deep']));
      expect(await found(q('created', 'date.beforeRelativeDate', 2))).toEqual([]);
      expect(await found({ ...q('modified', 'date.today'), ...sorted })).toEqual(
        expect.arrayContaining(['/lib/banana']),
      );
      expect(await found(q('modified', 'date.afterToday'))).toEqual([]);
      expect(await found(q('created', 'date.lessThanRelativeDate', '3'))).toEqual([]);
    });

    it('boolean and integer operators', async () => {
      const inLib = { i: 'path', o: `${OP}string.absolutePath`, v: '/lib::1' };
      expect(await found({ query: [inLib, { i: 'isFolderish', o: `${OP}boolean.isTrue` }] })).toEqual(['/lib/sub']);
      expect(
        await found({ query: [inLib, { i: 'isFolderish', o: `${OP}boolean.isFalse` }], sort_on: 'getId' }),
      ).toEqual(['/lib/apple', '/lib/banana', '/lib/cherry']);
      expect(
        await found({
          query: [inLib, { i: 'getObjPositionInParent', o: `${OP}int.lessThan`, v: '2' }],
          sort_on: 'getObjPositionInParent',
        }),
      ).toEqual(['/lib/apple', '/lib/banana']);
      expect(await found({ query: [inLib, { i: 'getObjPositionInParent', o: `${OP}int.is`, v: 3 }] })).toEqual([
        '/lib/sub',
      ]);
    });

    it('sorts, reverses, batches and caps items_total at limit; numbers may be numeric strings', async () => {
      const docs = q('portal_type', 'selection.any', ['Document']);
      expect(await found({ ...docs, sort_on: 'sortable_title', sort_order: 'reverse' })).toEqual([
        '/lib/sub/deep',
        '/lib/banana',
        '/lib/apple',
        '/anns',
      ]);
      const batch = await json(
        await t.request('POST', '/@querystring-search', {
          body: { ...docs, sort_on: 'sortable_title', b_size: '2', b_start: '1' },
        }),
      );
      expect(batch.items.map((i: any) => i.title)).toEqual(['Apple pie', 'Banana bread']);
      expect(batch.items_total).toBe(4);
      expect(batch.batching.next).toMatch(/b_start=3$/);
      const capped = await json(
        await t.request('POST', '/@querystring-search', { body: { ...docs, sort_on: 'sortable_title', limit: '3' } }),
      );
      expect(capped.items_total).toBe(3);
      expect(capped.items.map((i: any) => i.title)).toEqual(['Ann writes', 'Apple pie', 'Banana bread']);
      // A cleared form field is no value.
      const cleared = await json(
        await t.request('POST', '/@querystring-search', { body: { ...docs, limit: '', b_size: null, b_start: '' } }),
      );
      expect(cleared.items_total).toBe(4);
    });

    it('accepts the original operator names as aliases', async () => {
      const body = { query: [{ i: 'getId', o: 'plone.app.querystring.operation.string.is', v: 'cherry' }] };
      expect(await found(body)).toEqual(['/lib/cherry']);
    });

    it('shows only what the caller may view', async () => {
      const everything = { ...q('path', 'string.absolutePath', '/lib'), sort_on: 'path' };
      expect(await found(everything, '', null)).toEqual(['/lib/apple']);
      expect(await found(q('Creator', 'string.currentUser'), '', null)).toEqual([]);
    });

    it('answers full objects with fullobjects', async () => {
      const body = await json(
        await t.request('POST', '/@querystring-search', {
          body: { ...q('getId', 'string.is', 'apple'), fullobjects: 1 },
        }),
      );
      expect(body.items_total).toBe(1);
      expect(body.items[0]).toEqual(
        expect.objectContaining({
          '@id': `${t.suite.publicUrl}/lib/apple`,
          UID: expect.any(String),
          subjects: ['fruit', 'dessert'],
        }),
      );
      expect(body.items[0]['@components']).toBeDefined();
    });

    it.each([
      ['an empty query', { query: [] }],
      ['no query', {}],
      ['an unknown index', q('nonsense', 'string.is', 'x')],
      ['an unknown operator', { query: [{ i: 'Title', o: 'cms.app.querystring.operation.nope', v: 'x' }] }],
      ['a date that is not one', q('created', 'date.lessThan', 'yesterday')],
      ['date.between with one date', q('created', 'date.between', ['2020-01-01'])],
      ['a number that is not one', q('getObjPositionInParent', 'int.is', 'three')],
      ['a date operator on a text index', q('Title', 'date.today')],
      ['an unknown sort index', { ...q('getId', 'string.is', 'x'), sort_on: 'nope' }],
      ['a malformed b_size', { ...q('getId', 'string.is', 'x'), b_size: 'many' }],
    ])('refuses %s with 400', async (_name, body) => {
      const response = await t.request('POST', '/@querystring-search', { body });
      expect(response.status).toBe(400);
      expect((await json(response)).type).toBe('BadRequest');
    });
  });

  describe('GET @querystring-search', () => {
    it('takes the POST body JSON-encoded in the query parameter, once or twice encoded', async () => {
      const body = JSON.stringify(q('portal_type', 'selection.any', ['News Item']));
      for (const encoded of [encodeURIComponent(body), encodeURIComponent(encodeURIComponent(body))]) {
        const response = await t.request('GET', `/@querystring-search?query=${encoded}`);
        expect(response.status).toBe(200);
        const result = await json(response);
        expect(result.items.map((i: any) => i['@id'])).toEqual([`${t.suite.publicUrl}/lib/cherry`]);
        expect(result.items_total).toBe(1);
      }
    });

    it('refuses a query parameter that is not JSON, or missing', async () => {
      expect((await t.request('GET', '/@querystring-search?query=%7Bnope')).status).toBe(400);
      expect((await t.request('GET', '/@querystring-search')).status).toBe(400);
    });
  });
});
