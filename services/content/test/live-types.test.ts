import { BUILTIN_TYPES, type ContentTypeDef } from '@cms/shared';
import { LiveTypeRegistry } from '../src/domain/types';

/** Content's registry over config's definitions, replaced while the service runs. */
describe('the live type registry', () => {
  const withPages = (defs: readonly ContentTypeDef[]) =>
    defs.map((def) =>
      def.name === 'Document'
        ? {
            ...def,
            generated: [{ name: 'pages', kind: 'int' as const, title: 'Pages', description: '', fieldset: 'default' }],
          }
        : def,
    );

  it('keeps a type whose definition did not change (and its write schemas); rebuilds a changed one', () => {
    const types = new LiveTypeRegistry(BUILTIN_TYPES);
    const folder = types.get('Folder');
    const schema = types.createSchema(types.get('Document'));
    types.replace(JSON.parse(JSON.stringify(withPages(BUILTIN_TYPES))) as ContentTypeDef[]);
    expect(types.get('Folder')).toBe(folder);
    expect(types.get('Document').field('pages')).toMatchObject({
      kind: 'int',
      behavior: 'cms.dexterity.schema.generated.cms_0_Document',
    });
    expect(types.createSchema(types.get('Document'))).not.toBe(schema);
    expect(
      types.createSchema(types.get('Document')).safeParse({ '@type': 'Document', title: 't', pages: 'x' }).success,
    ).toBe(false);
  });

  it('drops a removed type and its fields', () => {
    const types = new LiveTypeRegistry(withPages(BUILTIN_TYPES));
    types.replace(BUILTIN_TYPES.filter((def) => def.name !== 'Link'));
    expect(types.find('Link')).toBeUndefined();
    expect(types.get('Document').field('pages')).toBeUndefined();
  });

  it('keeps its definitions when new ones cannot be built', () => {
    const types = new LiveTypeRegistry(BUILTIN_TYPES);
    const broken = BUILTIN_TYPES.map((def) => (def.name === 'Link' ? { ...def, behaviors: ['cms.nope'] } : def));
    expect(() => types.replace(broken)).toThrow(/unknown behavior/);
    expect(types.get('Link').behaviors).not.toContain('cms.nope');
  });

  it('adds in a folderish type only the types it allows when it filters them', () => {
    const filtered = BUILTIN_TYPES.map((def) =>
      def.name === 'Folder' ? { ...def, filterContentTypes: true, allowedContentTypes: ['Document', 'Image'] } : def,
    );
    const types = new LiveTypeRegistry(filtered);
    expect(types.allowedIn(types.get('Folder')).map((t) => t.name)).toEqual(['Document', 'Image']);
    expect(types.allowedIn(types.get('Site Root')).map((t) => t.name)).toContain('Link');
  });
});
