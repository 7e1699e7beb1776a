/**
 * Sorting by JSON fields in MongoDB's order: missing and null first, then numbers, strings (binary order, like
 * MongoDB's default collation and the PostgreSQL adapter), documents, arrays, booleans. SQLite does this exactly for
 * scalar values at paths that cross no array; `unsortableCondition` finds the rows for which it would not, and the
 * caller then sorts with mingo (arrays sort by their smallest or largest element in MongoDB).
 */
import type { SortSpec } from '../../../ports/store';
import { ARRAY_RANK, jsonPath, typeRank } from './filter-sql';

/** ORDER BY terms for the sort; undefined when a field has no JSON path. */
export function sortToSql(sort: SortSpec): string | undefined {
  const terms: string[] = [];
  for (const [field, direction] of Object.entries(sort)) {
    const dir = direction === -1 ? 'DESC' : 'ASC';
    if (field === '_id') {
      terms.push(`id ${dir}`);
      continue;
    }
    const path = jsonPath(field);
    if (!path) return undefined;
    // The type rank and the value, the key of the field's index (./ddl.ts): a sorted page walks it.
    terms.push(`${typeRank(path)} ${dir}`, `json_extract(doc, ${path}) ${dir}`);
  }
  // Ties in the order of their ids, so that pages do not overlap.
  terms.push('id');
  return terms.join(', ');
}

/** A condition true for the rows SQLite would not sort like MongoDB: an array on the way to a sort field, or a document or an array as its value. */
export function unsortableCondition(sort: SortSpec): string {
  const terms: string[] = [];
  for (const field of Object.keys(sort)) {
    if (field === '_id') continue;
    const segments = field.split('.');
    for (let length = 1; length < segments.length; length += 1) {
      terms.push(`json_type(doc, ${jsonPath(segments.slice(0, length).join('.'))}) = 'array'`);
    }
    // On the rank, so that the field's index finds them (documents rank 3, arrays 4).
    terms.push(`${typeRank(jsonPath(field)!)} IN (3, ${ARRAY_RANK})`);
  }
  return terms.length ? terms.join(' OR ') : '0';
}
