import { builtinTypeRegistry } from '../src/domain/types';
import {
  filterTerms,
  FieldSources,
  Vocabularies,
  type CatalogTerms,
  type PrincipalTerms,
} from '../src/domain/vocabularies';
import type { ContentDoc } from '../src/domain/content';

const catalog: CatalogTerms = {
  terms: async ({ vocabulary, text }) =>
    vocabulary === 'content' ? [{ token: 'uid-1', title: `found ${text}` }] : [{ token: 'tag', title: 'tag' }],
};
const principals: PrincipalTerms = {
  search: async () => [
    { id: 'ann', title: 'Ann', type: 'user' },
    { id: 'Reviewers', title: 'Reviewers', type: 'group' },
  ],
};
const admin = { id: 'admin', roles: ['Manager'], groups: [] } as never;
const doc = { _id: 'root', portal_type: 'Document', review_state: 'private' } as unknown as ContentDoc;

describe('vocabulary terms', () => {
  const terms = [{ token: 'a', title: 'Alpha' }, { token: 'b' }, { token: 'c', title: 'Gamma' }];

  it('shows the token as the title of a term without one', () => {
    expect(filterTerms(terms, {})).toContainEqual({ title: 'b', token: 'b' });
  });

  it('filters by title substring (any case), token and tokens; refuses title with token', () => {
    expect(filterTerms(terms, { title: 'AMM' })).toEqual([{ title: 'Gamma', token: 'c' }]);
    expect(filterTerms(terms, { token: 'a' })).toEqual([{ title: 'Alpha', token: 'a' }]);
    expect(filterTerms(terms, { tokens: ['a', 'c'] }).map((t) => t.token)).toEqual(['a', 'c']);
    expect(() => filterTerms(terms, { title: 'a', token: 'a' })).toThrow(/not both/);
  });

  it('resolves names and their reference aliases; an unknown name is NotFound', async () => {
    const vocabularies = new Vocabularies(builtinTypeRegistry(), catalog, principals);
    expect(vocabularies.resolve('plone.app.vocabularies.Users')).toBe('cms.app.vocabularies.Users');
    expect(vocabularies.resolve('constructor')).toBeUndefined();
    await expect(vocabularies.terms('nope', { doc, principal: admin, requestId: 'r' })).rejects.toMatchObject({
      type: 'NotFound',
    });
    const all = await vocabularies.terms('cms.app.vocabularies.Principals', { doc, principal: admin, requestId: 'r' });
    expect(all.map((t) => t.token)).toEqual(['user:ann', 'group:Reviewers']);
    await expect(
      vocabularies.terms('cms.app.vocabularies.Users', { doc, principal: null, requestId: 'r' }),
    ).rejects.toMatchObject({ type: 'Unauthorized' });
  });

  it('field sources: fixed choices, a named vocabulary, content for relations', async () => {
    const types = builtinTypeRegistry();
    const sources = new FieldSources(types, new Vocabularies(types, catalog, principals));
    const request = { doc, principal: admin, requestId: 'r' };
    expect(await sources.terms('allow_discussion', request)).toEqual([
      { token: 'True', title: 'Yes' },
      { token: 'False', title: 'No' },
    ]);
    expect((await sources.terms('language', request)).length).toBeGreaterThan(10);
    expect(await sources.search('relatedItems', 'zeb', request)).toEqual([{ token: 'uid-1', title: 'found zeb' }]);
    await expect(sources.terms('title', request)).rejects.toMatchObject({ type: 'BadRequest' });
    await expect(sources.terms('nothing', request)).rejects.toMatchObject({ type: 'NotFound' });
  });
});
