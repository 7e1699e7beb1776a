import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * `@inherit` (issue 26): a behavior's values from the nearest object on the path that has it, as the original's
 * documentation and recorded examples show, as an endpoint and as the `inherit` component; with the neutral names
 * and with ORIGINAL_IDENTIFIERS on (behavior names are taken in either form and echoed as given).
 */
const json = async (response: Response) => (await response.json()) as Record<string, any>;

function inheritance(suite: () => TestSuite, prefix: 'cms' | 'plone') {
  const t = () => suite();
  const nextPrevious = `${prefix}.nextpreviousenabled`;
  // The service's public URL (the site root's `@id`): what its answers' URLs start with.
  let site: Record<string, any>;
  const url = (path: string) => `${site['@id']}${path}`;

  beforeAll(async () => {
    site = await json(await t().request('GET', '/'));
    await t().admin('POST', '/', { '@type': 'Folder', id: 'outer', title: 'Outer', nextPreviousEnabled: true });
    await t().admin('POST', '/outer/@workflow/publish');
    // Private: anonymous callers may not view it, so they inherit from the folder above.
    await t().admin('POST', '/outer', { '@type': 'Folder', id: 'inner', title: 'Inner', nextPreviousEnabled: false });
    await t().admin('POST', '/outer/inner', { '@type': 'Document', id: 'page', title: 'Page', exclude_from_nav: true });
    await t().admin('POST', '/outer/inner/page/@workflow/publish');
  });

  it('answers the values of the nearest parent that has the behavior, as the recorded example shows', async () => {
    const query = `expand.inherit.behaviors=${nextPrevious}`;
    const response = await t().request('GET', `/outer/inner/page/@inherit?${query}`);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({
      '@id': url(`/outer/inner/page/@inherit?${query}`),
      [nextPrevious]: { from: { '@id': url('/outer/inner'), title: 'Inner' }, data: { nextPreviousEnabled: false } },
    });
  });

  it('skips the objects the caller may not view', async () => {
    const response = await t().request('GET', `/outer/inner/page/@inherit?expand.inherit.behaviors=${nextPrevious}`, {
      auth: null,
    });
    expect(response.status).toBe(200);
    expect((await json(response))[nextPrevious]).toEqual({
      from: { '@id': url('/outer'), title: 'Outer' },
      data: { nextPreviousEnabled: true },
    });
  });

  it('starts at the context itself, and leaves out names that are no behavior or that nothing on the path has', async () => {
    const names = `${prefix}.excludefromnavigation,${prefix}.leadimage,no.such.behavior,${prefix}.navigationroot`;
    const body = await json(await t().request('GET', `/outer/inner/page/@inherit?expand.inherit.behaviors=${names}`));
    expect(body[`${prefix}.excludefromnavigation`]).toEqual({
      from: { '@id': url('/outer/inner/page'), title: 'Page' },
      data: { exclude_from_nav: true },
    });
    // The site root is a navigation root (the original's example): its behavior has no fields.
    expect(body[`${prefix}.navigationroot`]).toEqual({ from: { '@id': url(''), title: site.title }, data: {} });
    expect(Object.keys(body).sort()).toEqual(
      ['@id', `${prefix}.excludefromnavigation`, `${prefix}.navigationroot`].sort(),
    );
  });

  it('answers an empty object when no behavior is named, as the original does', async () => {
    const response = await t().request('GET', '/outer/inner/page/@inherit');
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({});
  });

  it('is the `inherit` component, listed only when behaviors are named, embedded with expand=inherit', async () => {
    const plain = await json(await t().request('GET', '/outer/inner/page'));
    expect(plain['@components']).not.toHaveProperty('inherit');
    const query = `expand.inherit.behaviors=${nextPrevious}`;
    const linked = await json(await t().request('GET', `/outer/inner/page?${query}`));
    expect(linked['@components'].inherit).toEqual({ '@id': url(`/outer/inner/page/@inherit?${query}`) });
    const expanded = await json(await t().request('GET', `/outer/inner/page?expand=inherit&${query}`));
    const endpoint = await json(await t().request('GET', `/outer/inner/page/@inherit?${query}`));
    expect(expanded['@components'].inherit).toEqual(endpoint);
    expect(expanded['@components'].inherit[nextPrevious].data).toEqual({ nextPreviousEnabled: false });
  });

  it('refuses too many or too long behavior names with a 400', async () => {
    const many = Array.from({ length: 21 }, (_, i) => `${prefix}.b${i}`).join(',');
    expect((await t().request('GET', `/outer/@inherit?expand.inherit.behaviors=${many}`)).status).toBe(400);
    const long = `${prefix}.${'x'.repeat(200)}`;
    const refused = await t().request('GET', `/outer/@inherit?expand.inherit.behaviors=${long}`);
    expect(refused.status).toBe(400);
    expect(await refused.text()).not.toContain('x'.repeat(200));
  });

  it('answers 401 to an anonymous caller on an object it may not view', async () => {
    const response = await t().request('GET', `/outer/inner/@inherit?expand.inherit.behaviors=${nextPrevious}`, {
      auth: null,
    });
    expect(response.status).toBe(401);
  });
}

describe('@inherit with the neutral names', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite();
  });
  afterAll(async () => {
    await t.stop();
  });
  inheritance(() => t, 'cms');
});

describe('@inherit with ORIGINAL_IDENTIFIERS=true', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite({ ORIGINAL_IDENTIFIERS: 'true' });
  });
  afterAll(async () => {
    await t.stop();
  });
  inheritance(() => t, 'plone');
});
