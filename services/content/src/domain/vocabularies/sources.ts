/**
 * The sources of a type's fields (`@sources/<field>`, `@querysources/<field>`): a field's fixed choices, or the
 * vocabulary it names; relation fields search content through the catalog.
 */
import { badRequest, clip, notFound } from '@cms/shared';
import type { TypeField, TypeRegistry } from '../types';
import type { Vocabularies, VocabularyRequest } from './registry';
import type { Term } from './terms';

const CONTENT_VOCABULARIES = new Set([
  'cms.app.vocabularies.Catalog',
  'cms.formwidget.relations.cmfcontentsearch',
  'cms.app.multilingual.RootCatalog',
]);

export class FieldSources {
  constructor(
    private readonly types: TypeRegistry,
    private readonly vocabularies: Vocabularies,
  ) {}

  /** Every term of the field's source (404: no such field here; 400: the field has no source). */
  async terms(fieldName: string, request: VocabularyRequest): Promise<Term[]> {
    const field = this.fieldOf(fieldName, request);
    if (field.vocabulary) return this.vocabularies.terms(field.vocabulary, request);
    if (field.choices) return field.choices.map(([token, title]) => ({ token, title }));
    throw badRequest(`Field ${clip(fieldName)} has no source`);
  }

  /** The terms of the field's source that match the query: content by its words, other terms by title. */
  async search(fieldName: string, query: string, request: VocabularyRequest): Promise<Term[]> {
    const field = this.fieldOf(fieldName, request);
    if (field.kind === 'relationlist' || (field.vocabulary && CONTENT_VOCABULARIES.has(field.vocabulary))) {
      return this.vocabularies.content(request, undefined, query);
    }
    const needle = query.toLowerCase();
    const terms = await this.terms(fieldName, { ...request, text: query });
    return terms.filter((t) => (t.title || t.token).toLowerCase().includes(needle));
  }

  private fieldOf(name: string, request: VocabularyRequest): TypeField {
    const field = this.types.find(request.doc.portal_type)?.field(name);
    if (!field) throw notFound(`No field ${clip(name)} on this content`);
    return field;
  }
}
