import { BUILTIN_TYPES, type ContentTypeDef } from '@cms/shared';
import {
  addToSchema,
  changeInSchema,
  changeSchema,
  nameFromTitle,
  removeFromSchema,
  replaceSchema,
} from '../src/domain/schema-edits';

/** The rules of `@types` schema edits, decided by config. */
describe('schema edits', () => {
  const document = BUILTIN_TYPES.find((def) => def.name === 'Document') as ContentTypeDef;

  it('names fields and fieldsets from their titles', () => {
    expect(nameFromTitle('Author email')).toBe('author_email');
    expect(nameFromTitle('Contact Info')).toBe('contact_info');
    expect(nameFromTitle('Ünïcode Fïeld 2')).toBe('unicode_field_2');
    expect(() => nameFromTitle('123 ---')).toThrow(/letter/);
  });

  it('adds fields of the factory kinds, and fieldsets; refuses a name in use and an unknown factory', () => {
    const withFieldset = addToSchema(document, { factory: 'fieldset', title: 'Contact Info' });
    expect(withFieldset.created).toEqual({ name: 'contact_info', fieldset: true });
    const withField = addToSchema(withFieldset.definition, {
      factory: 'label_password_field',
      title: 'Pin',
      required: true,
    });
    expect(withField.definition.generated).toEqual([
      {
        name: 'pin',
        kind: 'textline',
        title: 'Pin',
        description: '',
        required: true,
        widget: 'password',
        fieldset: 'default',
      },
    ]);
    expect(() => addToSchema(withField.definition, { factory: 'URL', title: 'Pin' })).toThrow(/exists already/);
    expect(() => addToSchema(document, { factory: 'URL', title: 'Title' })).toThrow(/exists already/);
    expect(() => addToSchema(document, { factory: 'fieldset', title: 'Settings' })).toThrow(/exists already/);
    expect(() => addToSchema(document, { factory: 'Spreadsheet', title: 'Cells' })).toThrow(/Unknown field factory/);
    expect(() => addToSchema(document, { title: 'No factory' })).toThrow(/Invalid field/);
  });

  it('changes and removes generated fields only; behavior fields and built-in fieldsets are read-only', () => {
    let def = addToSchema(document, { factory: 'label_choice_field', title: 'Colour', values: ['red'] }).definition;
    def = addToSchema(def, { factory: 'fieldset', title: 'Extra' }).definition;
    def = changeInSchema(def, 'colour', { values: ['red', 'blue'], required: true }).definition;
    expect(def.generated?.[0]).toMatchObject({
      choices: [
        ['red', 'red'],
        ['blue', 'blue'],
      ],
      required: true,
    });
    def = changeSchema(def, { fieldsets: [{ id: 'extra', title: 'More', fields: ['colour'] }] }).definition;
    expect(def.generated?.[0].fieldset).toBe('extra');
    expect(def.fieldsets).toEqual([{ id: 'extra', title: 'More', description: '' }]);
    expect(() => changeInSchema(def, 'title', { title: 'Name' })).toThrow(/cms.dublincore/);
    expect(() => removeFromSchema(def, 'text')).toThrow(/cms.richtext/);
    expect(() => removeFromSchema(def, 'settings')).toThrow(/base schema/);
    expect(() => removeFromSchema(def, 'nothing')).toThrow(/No field or fieldset/);
    // A removed fieldset leaves its fields in Default.
    const without = removeFromSchema(def, 'extra').definition;
    expect(without.fieldsets).toEqual([]);
    expect(without.generated?.[0].fieldset).toBe('default');
    expect(removeFromSchema(without, 'colour').definition.generated).toEqual([]);
  });

  it('replaces the generated part with PUT, ignoring the fields behaviors define', () => {
    const def = addToSchema(document, { factory: 'URL', title: 'Old' }).definition;
    const replaced = replaceSchema(def, {
      fieldsets: [{ id: 'author', title: 'Author', fields: ['author_url'] }],
      properties: {
        title: { factory: 'Text line (String)', title: 'Title' },
        author_url: { factory: 'URL', title: 'Website', maxLength: 30 },
      },
      required: ['author_url'],
    }).definition;
    expect(replaced.generated).toEqual([
      {
        name: 'author_url',
        kind: 'url',
        title: 'Website',
        description: '',
        maxLength: 30,
        required: true,
        fieldset: 'author',
      },
    ]);
    expect(replaced.fieldsets).toEqual([{ id: 'author', title: 'Author', description: '' }]);
  });
});
