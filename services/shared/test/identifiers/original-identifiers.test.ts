import {
  neutralBehavior,
  neutralName,
  originalBehavior,
  originalName,
  toNeutralIdentifiers,
  toOriginalIdentifiers,
} from '../../src/identifiers/original-identifiers';

const SITE = 'http://cms.example';

describe('original identifiers', () => {
  it('reads the cms prefix back as plone, with the exceptions by table', () => {
    expect(originalName('cms.app.vocabularies.Keywords')).toBe('plone.app.vocabularies.Keywords');
    expect(originalName('cms.site_title')).toBe('plone.site_title');
    expect(originalName('Site Root')).toBe('Plone Site');
    expect(originalName('cms-types')).toBe('dexterity-types');
    expect(originalName('cms_setup')).toBe('plone_setup');
    expect(originalName('cms.ManagePortal')).toBe('cmf.ManagePortal');
    expect(originalName('cms-type-info')).toBe('Dexterity FTI');
    expect(originalName('Document')).toBe('Document');
    expect(originalName('cms. not an identifier')).toBe('cms. not an identifier');
    expect(originalBehavior('blocks')).toBe('volto.blocks');
    expect(originalBehavior('blocks.editable.layout')).toBe('volto.blocks.editable.layout');
    expect(originalBehavior('cms.richtext')).toBe('plone.richtext');
  });

  it('takes either name on input', () => {
    for (const neutral of [
      'cms.app.vocabularies.Keywords',
      'Site Root',
      'cms-types',
      'cms_setup',
      'cms.ManagePortal',
    ]) {
      expect(neutralName(originalName(neutral))).toBe(neutral);
      expect(neutralName(neutral)).toBe(neutral);
    }
    expect(neutralName('cmf.ModifyPortalContent')).toBe('Modify portal content');
    expect(neutralBehavior('volto.blocks')).toBe('blocks');
    expect(neutralBehavior('plone.leadimage')).toBe('cms.leadimage');
    expect(neutralName('plone')).toBe('plone');
  });

  it('renames identifiers in a response by their place, never user content', () => {
    const body = {
      '@id': `${SITE}/page`,
      '@type': 'Document',
      id: 'cms_setup',
      title: 'cms.app.vocabularies.Keywords',
      description: 'Site Root',
      subjects: ['cms.site_title'],
      blocks: { b: { '@type': 'listing', querystring: { query: [{ o: 'cms.app.querystring.operation.x' }] } } },
      remoteUrl: 'https://elsewhere.example/@vocabularies/cms.app.vocabularies.Keywords',
      parent: { '@id': SITE, '@type': 'Site Root', title: 'Site Root' },
      '@components': {
        actions: { user: [{ id: 'cms_setup', icon: 'cms-controlpanel', title: 'Site Setup', url: `${SITE}/x` }] },
      },
    };
    const before = JSON.stringify(body);
    const out = toOriginalIdentifiers(body, SITE) as any;
    expect(JSON.stringify(body)).toBe(before); // the input is not changed
    expect(out.id).toBe('cms_setup');
    expect(out.title).toBe(body.title);
    expect(out.description).toBe('Site Root');
    expect(out.subjects).toEqual(['cms.site_title']);
    expect(out.blocks).toEqual(body.blocks);
    expect(out.remoteUrl).toBe(body.remoteUrl);
    expect(out.parent).toEqual({ '@id': SITE, '@type': 'Plone Site', title: 'Site Root' });
    expect(out['@components'].actions.user[0]).toMatchObject({ id: 'plone_setup', icon: 'plone-controlpanel' });
  });

  it('renames record keys, operators, vocabulary URLs and the behaviors of the types panel', () => {
    const out = toOriginalIdentifiers(
      {
        'cms.site_title': 'Site',
        operations: ['cms.app.querystring.operation.selection.any'],
        operators: {
          'cms.app.querystring.operation.selection.any': { operation: 'cms.app.querystring.queryparser._anyOf' },
        },
        vocabulary: { '@id': `${SITE}/@vocabularies/cms.app.vocabularies.Keywords` },
        types: [{ '@id': `${SITE}/@types/Site%20Root`, title: 'Site Root' }],
        panel: {
          '@id': `${SITE}/@controlpanels/cms-types/Document`,
          data: { blocks: true, 'cms.richtext': false, title: 'Page' },
          schema: { fieldsets: [{ behavior: 'cms', fields: ['blocks', 'cms.richtext'] }] },
        },
      },
      SITE,
    ) as any;
    expect(out['plone.site_title']).toBe('Site');
    expect(out.operations).toEqual(['plone.app.querystring.operation.selection.any']);
    expect(out.operators['plone.app.querystring.operation.selection.any'].operation).toBe(
      'plone.app.querystring.queryparser._anyOf',
    );
    expect(out.vocabulary['@id']).toBe(`${SITE}/@vocabularies/plone.app.vocabularies.Keywords`);
    expect(out.types[0]).toEqual({ '@id': `${SITE}/@types/Plone%20Site`, title: 'Plone Site' });
    expect(out.panel['@id']).toBe(`${SITE}/@controlpanels/dexterity-types/Document`);
    expect(out.panel.data).toEqual({ 'volto.blocks': true, 'plone.richtext': false, title: 'Page' });
    expect(out.panel.schema.fieldsets[0]).toEqual({ behavior: 'plone', fields: ['volto.blocks', 'plone.richtext'] });
  });

  it('renames original names in a request body to the neutral ones, leaving user content', () => {
    const out = toNeutralIdentifiers({
      'plone.site_title': 'plone.app.x',
      query: [{ i: 'portal_type', o: 'plone.app.querystring.operation.selection.any', v: ['plone.thing'] }],
      'volto.blocks': true,
      text: 'plone.app.vocabularies.Keywords',
    }) as any;
    expect(out).toEqual({
      'cms.site_title': 'plone.app.x',
      query: [{ i: 'portal_type', o: 'cms.app.querystring.operation.selection.any', v: ['plone.thing'] }],
      blocks: true,
      text: 'plone.app.vocabularies.Keywords',
    });
  });
});

describe('the date format records’ original prefix', () => {
  it('is Products.CMFPlone, both ways', () => {
    expect(originalName('cms.i18nl10n.override_dateformat.Enabled')).toBe(
      'Products.CMFPlone.i18nl10n.override_dateformat.Enabled',
    );
    expect(neutralName('Products.CMFPlone.i18nl10n.override_dateformat.Enabled')).toBe(
      'cms.i18nl10n.override_dateformat.Enabled',
    );
    expect(originalName('cms.site_title')).toBe('plone.site_title');
  });
});
