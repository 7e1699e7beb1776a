import { checkId, idCandidates, idFromTitle } from '../src/domain/tree';

describe('short names', () => {
  it.each([
    ['My Document', 'my-document'],
    ['  Café & Crème!  ', 'cafe-creme'],
    ['Ünïcödé – dash', 'unicode-dash'],
    ['***', 'document'],
  ])('%s → %s', (title, id) => {
    expect(idFromTitle(title, 'Document')).toBe(id);
  });

  it('offers numbered alternatives', () => {
    const candidates = idCandidates('doc');
    expect([candidates.next().value, candidates.next().value, candidates.next().value]).toEqual([
      'doc',
      'doc-1',
      'doc-2',
    ]);
  });

  it.each(['../x', '_hidden', '@view', 'a/b', '', '.dot'])('refuses the id %j', (id) => {
    expect(() => checkId(id)).toThrow(expect.objectContaining({ type: 'BadRequest' }));
  });
});
