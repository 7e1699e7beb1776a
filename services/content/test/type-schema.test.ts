import { fieldProperty, typeSchema } from '../src/domain/content';
import { builtinTypeRegistry, type TypeField } from '../src/domain/types';

const SITE = 'http://example.org';

describe('type schema', () => {
  const registry = builtinTypeRegistry();

  it('puts every field of every type in exactly one fieldset, in form order', () => {
    for (const type of registry.list()) {
      const schema = typeSchema(type, SITE);
      const listed = schema.fieldsets.flatMap((f) => f.fields);
      expect(new Set(listed).size).toBe(listed.length);
      expect([...listed].sort()).toEqual(type.fields.map((f) => f.name).sort());
    }
    const document = typeSchema(registry.get('Document'), SITE);
    expect(document.fieldsets.map((f) => f.id)).toEqual([
      'default',
      'settings',
      'categorization',
      'dates',
      'ownership',
      'layout',
    ]);
    expect(document.fieldsets[0]).toEqual({
      behavior: 'cms',
      description: '',
      fields: ['title', 'description', 'text', 'changeNote'],
      id: 'default',
      title: 'Default',
    });
  });

  it('describes a fixed choice inline and names its source', () => {
    const field = registry.get('Document').field('allow_discussion') as TypeField;
    expect(fieldProperty(field, SITE)).toEqual({
      behavior: 'cms.app.discussion.behavior.IAllowDiscussion',
      choices: [
        ['True', 'Yes'],
        ['False', 'No'],
      ],
      description: 'Allow discussion for this content object.',
      enum: ['True', 'False'],
      enumNames: ['Yes', 'No'],
      factory: 'Choice',
      title: 'Allow discussion',
      type: 'string',
      vocabulary: { '@id': `${SITE}/@sources/allow_discussion` },
    });
  });

  it('shows defaults except empty text, unset values and empty free-text lists', () => {
    const document = typeSchema(registry.get('Document'), SITE).properties;
    expect(document.title).not.toHaveProperty('default');
    expect(document.subjects).not.toHaveProperty('default');
    expect(document.table_of_contents).not.toHaveProperty('default');
    expect(document.relatedItems.default).toEqual([]);
    expect(document.versioning_enabled.default).toBe(true);
  });
});
