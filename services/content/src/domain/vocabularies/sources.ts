/**
 * The sources of a type's fields (`@sources/<field>`, `@querysources/<field>`): a field's fixed choices, or the
 * vocabulary it names; relation fields search content through the catalog.
 */
import { badRequest, clip, notFound, type Permission } from '@cms/shared';
import type { ContentDoc } from '../content/model';
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

  /**
   * What reading a field's source needs on `doc`: its vocabulary's permission, else View (also for a field
   * that is not there, which is 404 later). `search` of content asks View alone: the catalog filters each item.
   */
  permissionFor(fieldName: string, doc: ContentDoc, searching = false): Permission {
    const field = this.types.find(doc.portal_type)?.field(fieldName);
    if (!field?.vocabulary || (searching && contentSearched(field))) return 'View';
    return this.vocabularies.permissionFor(field.vocabulary);
  }

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
    if (contentSearched(field)) {
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

/** Whether searching the field's source searches content (through the catalog, which filters what may be seen). */
function contentSearched(field: TypeField): boolean {
  return field.kind === 'relationlist' || (!!field.vocabulary && CONTENT_VOCABULARIES.has(field.vocabulary));
}
