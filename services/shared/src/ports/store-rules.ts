/**
 * Rules of the store port that both adapters apply alike: document ids, and
 * which updates and indexes the port allows.
 */
import { randomUUID } from 'node:crypto';
import type { Filter, IndexOptions, Update } from './store';

const SUPPORTED_UPDATE_OPERATORS = ['$set', '$unset', '$inc', '$push', '$pull'];

// Realm-independent checks: under jest, values may come from another V8 context.
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return Object.prototype.toString.call(value) === '[object Object]';
}

/** A new document id: a random UUID without dashes. */
export function newDocumentId(): string {
  return randomUUID().replace(/-/g, '');
}

/** Rejects replacement documents and update operators outside the port's subset. */
export function assertSupportedUpdate(update: unknown): asserts update is Update {
  if (!isPlainObject(update)) throw new Error('an update must be a document of update operators');
  const keys = Object.keys(update);
  if (keys.length === 0) throw new Error('an update must contain at least one update operator');
  for (const key of keys) {
    if (!key.startsWith('$')) {
      throw new Error(
        `replacement documents are not supported: found field '${key}' in an update; use ${SUPPORTED_UPDATE_OPERATORS.join(' ')}`,
      );
    }
    if (!SUPPORTED_UPDATE_OPERATORS.includes(key)) {
      throw new Error(`unsupported update operator ${key}; supported: ${SUPPORTED_UPDATE_OPERATORS.join(' ')}`);
    }
    if (!isPlainObject(update[key])) throw new Error(`the argument of ${key} must be a document of field paths`);
  }
}

/** Rejects index specifications the port does not allow on both engines. */
export function assertSupportedIndex(keys: Record<string, 1 | -1>, options: IndexOptions = {}): void {
  const fields = Object.keys(keys);
  if (fields.length === 0) throw new Error('an index needs at least one key');
  if (fields.length > 1 && options.unique) {
    throw new Error(`compound unique index on ${fields.join(', ')}: the embedded engine cannot enforce it`);
  }
}

/** Whether a filter pins `_id` (top level or inside `$and`), so an upsert takes its id from the filter. */
export function filterSetsId(filter: Filter): boolean {
  if ('_id' in filter) return true;
  const and = filter.$and;
  return Array.isArray(and) && and.some((sub) => isPlainObject(sub) && filterSetsId(sub));
}
