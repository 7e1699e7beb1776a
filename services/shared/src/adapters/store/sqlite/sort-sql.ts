/**
 * Sorting by JSON fields in MongoDB's order: missing and null first, then numbers, strings (binary order, like
 * MongoDB's default collation and the PostgreSQL adapter), documents, arrays, booleans. SQLite does this exactly for
 * scalar values at paths that cross no array; `unsortableCondition` finds the rows for which it would not, and the
 * caller then sorts with mingo (arrays sort by their smallest or largest element in MongoDB).
 */
import type { SortSpec } from '../../../ports/store';
import { jsonPath } from './filter-sql';

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
    terms.push(
      `CASE json_type(doc, ${path}) WHEN 'integer' THEN 1 WHEN 'real' THEN 1 WHEN 'text' THEN 2 WHEN 'object' THEN 3 ` +
        `WHEN 'array' THEN 4 WHEN 'false' THEN 5 WHEN 'true' THEN 5 ELSE 0 END ${dir}`,
      // Within a rank json_extract orders numbers numerically, text by bytes, false before true.
      `json_extract(doc, ${path}) ${dir}`,
    );
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
    for (let length = 1; length <= segments.length; length += 1) {
      const type = `json_type(doc, ${jsonPath(segments.slice(0, length).join('.'))})`;
      terms.push(length === segments.length ? `${type} IN ('array', 'object')` : `${type} = 'array'`);
    }
  }
  return terms.length ? terms.join(' OR ') : '0';
}
