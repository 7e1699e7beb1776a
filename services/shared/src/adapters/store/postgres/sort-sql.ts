/**
 * Sorting by jsonb fields in MongoDB's order: missing and null first, then numbers, strings (binary order, like
 * MongoDB's default collation), documents, arrays, booleans. PostgreSQL does this exactly for scalar values at
 * paths that cross no array; `sortNeedsMingo` finds the matches for which it would not, and the caller then sorts
 * with mingo (arrays sort by their smallest or largest element in MongoDB).
 */
import type { SortSpec } from '../../../ports/store';

export interface SortSql {
  orderBy: string;
  values: unknown[];
}

function segmentsOf(field: string): string[] | undefined {
  const segments = field.split('.');
  return segments.every((segment) => segment !== '' && !segment.startsWith('$') && !/^\d+$/.test(segment))
    ? segments
    : undefined;
}

/** ORDER BY terms for the sort (params numbered from `firstParam`); undefined when a field is not translatable. */
export function sortToSql(sort: SortSpec, column: string, idColumn: string, firstParam: number): SortSql | undefined {
  const terms: string[] = [];
  const values: unknown[] = [];
  for (const [field, direction] of Object.entries(sort)) {
    const dir = direction === -1 ? 'DESC' : 'ASC';
    if (field === '_id') {
      terms.push(`${idColumn} COLLATE "C" ${dir}`);
      continue;
    }
    const segments = segmentsOf(field);
    if (!segments) return undefined;
    values.push(segments);
    const value = `(${column} #> $${firstParam + values.length - 1}::text[])`;
    const type = `jsonb_typeof(${value})`;
    terms.push(
      `CASE ${type} WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 4 ` +
        `WHEN 'boolean' THEN 5 ELSE 0 END ${dir}`,
      `CASE WHEN ${type} = 'number' THEN (${value})::numeric END ${dir}`,
      `CASE WHEN ${type} = 'string' THEN ${value} #>> '{}' END COLLATE "C" ${dir}`,
      `CASE WHEN ${type} = 'boolean' THEN (${value})::boolean END ${dir}`,
    );
  }
  // Ties in the order of their ids, so that pages do not overlap.
  terms.push(`${idColumn} COLLATE "C"`);
  return { orderBy: terms.join(', '), values };
}

/**
 * A condition true for the documents PostgreSQL would not sort like MongoDB: an array on the way to a sort
 * field, or a document or an array as its value. Params numbered from `firstParam`.
 */
export function unsortableCondition(
  sort: SortSpec,
  column: string,
  firstParam: number,
): { sql: string; values: unknown[] } {
  const terms: string[] = [];
  const values: unknown[] = [];
  for (const field of Object.keys(sort)) {
    if (field === '_id') continue;
    const segments = field.split('.');
    for (let length = 1; length <= segments.length; length += 1) {
      values.push(segments.slice(0, length));
      const type = `jsonb_typeof(${column} #> $${firstParam + values.length - 1}::text[])`;
      terms.push(length === segments.length ? `${type} IN ('array', 'object')` : `${type} = 'array'`);
    }
  }
  return { sql: terms.length ? terms.join(' OR ') : 'FALSE', values };
}
