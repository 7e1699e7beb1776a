/**
 * What every adapter of the store port does to documents in memory with MongoDB's semantics (through mingo):
 * applying an update, building an upserted document from a filter, projecting, copying.
 */
import { types } from 'node:util';
import { find as mingoFind, update as mingoUpdate } from 'mingo';
import type { Document, Filter, Projection, Update } from '../../ports/store';
import { isPlainObject, newDocumentId } from '../../ports/store-rules';

export function deepClone<V>(value: V): V {
  if (Array.isArray(value)) return value.map(deepClone) as V;
  if (types.isDate(value)) return new Date(value.getTime()) as V;
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = deepClone(item);
    return copy as V;
  }
  return value;
}

export function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}

type MingoModifier = Parameters<typeof mingoUpdate>[1];

/**
 * MongoDB rejects an update whose target has the wrong type, where mingo
 * silently leaves the document alone; check the targets mingo would skip.
 */
function assertUpdateTargets(doc: Document, update: Update): void {
  for (const [op, fields] of Object.entries(update) as [string, Record<string, unknown>][]) {
    for (const fieldPath of Object.keys(fields)) {
      const segments = fieldPath.split('.');
      let current: unknown = doc;
      let reached = true;
      for (const segment of segments) {
        if (Array.isArray(current)) {
          // Array elements addressed by position: mingo applies MongoDB's rules.
          reached = false;
          break;
        }
        if (!isPlainObject(current)) {
          if (op === '$set' || op === '$inc' || op === '$push') {
            throw new Error(`cannot apply ${op} to '${fieldPath}': a parent of the field is not a document`);
          }
          reached = false;
          break;
        }
        current = current[segment];
        if (current === undefined) {
          reached = false;
          break;
        }
      }
      if (!reached) continue;
      if (op === '$inc' && typeof current !== 'number') {
        throw new Error(`cannot apply $inc to the non-numeric field '${fieldPath}'`);
      }
      if ((op === '$push' || op === '$pull') && !Array.isArray(current)) {
        throw new Error(`cannot apply ${op} to the non-array field '${fieldPath}'`);
      }
    }
  }
}

/** Applies `update` to `doc` in place; returns whether anything changed. */
export function applyUpdate(doc: Document, update: Update): boolean {
  assertUpdateTargets(doc, update);
  // mingo refuses, like MongoDB, to change _id.
  return mingoUpdate(doc, update as MingoModifier, undefined, undefined, { cloneMode: 'deep' }).length > 0;
}

function setPath(doc: Record<string, unknown>, fieldPath: string, value: unknown): void {
  const segments = fieldPath.split('.');
  let current = doc;
  for (const segment of segments.slice(0, -1)) {
    const next = current[segment];
    if (next === undefined) current[segment] = {};
    else if (!isPlainObject(next)) throw new Error(`cannot build the upserted document: '${fieldPath}' conflicts`);
    current = current[segment] as Record<string, unknown>;
  }
  current[segments[segments.length - 1]] = deepClone(value);
}

/** Like MongoDB: the equality conditions of the filter (top level and `$and`) seed an upserted document. */
function collectEqualities(filter: Filter, into: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const sub of value) if (isPlainObject(sub)) collectEqualities(sub, into);
    } else if (key.startsWith('$') || types.isRegExp(value)) {
      continue;
    } else if (isOperatorObject(value)) {
      if ('$eq' in value) setPath(into, key, value.$eq);
    } else {
      setPath(into, key, value);
    }
  }
}

export function buildUpsertDocument(filter: Filter, update: Update): Document {
  const doc: Document = {};
  collectEqualities(filter, doc);
  let modifier = update;
  if (doc._id === undefined && update.$set !== undefined && '_id' in update.$set) {
    // MongoDB lets an upsert take its _id from $set when the filter gives none.
    const { _id, ...set } = update.$set;
    doc._id = _id as string;
    modifier = { ...update, $set: set };
  }
  applyUpdate(doc, modifier);
  const { _id, ...rest } = doc;
  return { _id: _id ?? newDocumentId(), ...rest };
}

export type MingoProjection = NonNullable<Parameters<typeof mingoFind>[2]>;

export function hasKeys(value: object | undefined): value is object {
  return value !== undefined && Object.keys(value).length > 0;
}

export function assertCount(name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
    throw new Error(`${name} must be a non-negative integer`);
  }
}

/** mingo's projection moves `_id` last; MongoDB returns it first. */
export function idFirst<T extends Document>(doc: T): T {
  if (!('_id' in doc)) return doc;
  const { _id, ...rest } = doc;
  return { _id, ...rest } as T;
}

export function project<T extends Document>(doc: T, projection: Projection | undefined): T {
  return hasKeys(projection) ? idFirst(mingoFind<T>([doc], {}, projection as MingoProjection).all()[0]) : doc;
}
