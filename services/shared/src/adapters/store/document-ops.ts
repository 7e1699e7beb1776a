/**
 * What every adapter of the store port does to documents in memory with MongoDB's semantics (through mingo):
 * applying an update, building an upserted document from a filter, projecting, copying.
 */
import { types } from 'node:util';
import { Query, find as mingoFind, update as mingoUpdate } from 'mingo';
import { Context } from 'mingo/core';
import * as queryOperators from 'mingo/operators/query';
import { Query as BareQuery } from 'mingo/query';
import { cloneDeep as mingoCloneDeep, isEqual as mingoIsEqual } from 'mingo/util';
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
  const plain = plainUpdate(doc, update);
  if (plain) return applyPlainUpdate(doc, plain);
  // mingo refuses, like MongoDB, to change _id.
  return mingoUpdate(doc, update as MingoModifier, undefined, undefined, { cloneMode: 'deep' }).length > 0;
}

/** One field of a plain update: the object that holds it (undefined: missing, made for $set and $inc) and its key. */
interface PlainStep {
  op: '$set' | '$unset' | '$inc';
  holder: Record<string, unknown> | undefined;
  segments: string[];
  key: string;
  value: unknown;
}

const PLAIN_OPERATORS = new Set(['$set', '$unset', '$inc']);
const UNSAFE_SEGMENTS = new Set(['', '__proto__', 'constructor', 'prototype']);

/**
 * The steps of `update` when it is one of the common plain updates, else undefined (mingo then applies it): only
 * $set, $unset and $inc, numeric $inc amounts, field paths without `$`, numeric or unsafe segments, none of them
 * `_id` or inside another, through plain objects only. For those, the steps below do exactly what mingo's update
 * does (test/store/plain-update.test.ts compares the two), without mingo's per-call copy of its operator tables,
 * which made every write pay for hundreds of operators it never used. Resolving every path before changing
 * anything keeps mingo's all-or-nothing checks.
 */
function plainUpdate(doc: Document, update: Update): PlainStep[] | undefined {
  const steps: PlainStep[] = [];
  const paths: string[] = [];
  for (const [op, fields] of Object.entries(update) as [string, Record<string, unknown>][]) {
    if (!PLAIN_OPERATORS.has(op) || !isPlainObject(fields)) return undefined;
    for (const [fieldPath, value] of Object.entries(fields)) {
      if (op === '$inc' && typeof value !== 'number') return undefined;
      const segments = fieldPath.split('.');
      if (segments[0] === '_id') return undefined;
      for (const segment of segments) {
        if (UNSAFE_SEGMENTS.has(segment) || segment.includes('$') || /^\d+$/.test(segment)) return undefined;
      }
      paths.push(fieldPath);
      steps.push({ op: op as PlainStep['op'], holder: undefined, segments, key: segments[segments.length - 1], value });
    }
  }
  if (hasConflict(paths)) return undefined;
  // Check every path through the document before the first change: mingo meets the same obstacles.
  for (const step of steps) {
    let current: unknown = doc;
    for (const segment of step.segments.slice(0, -1)) {
      const next = (current as Record<string, unknown>)[segment];
      if (next === undefined || next === null) {
        current = undefined;
        break;
      }
      if (!isPlainObject(next)) return undefined;
      current = next;
    }
    if (current !== undefined && !isPlainObject(current)) return undefined;
    step.holder = current as Record<string, unknown> | undefined;
  }
  return steps;
}

/** Whether one path equals another or lies inside it (mingo refuses such an update). */
function hasConflict(paths: string[]): boolean {
  if (paths.length < 2) return false;
  const sorted = [...paths].sort();
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1] || sorted[i].startsWith(`${sorted[i - 1]}.`)) return true;
  }
  return false;
}

/** Makes the missing (or null) objects on the way to the field, as mingo's `buildGraph` does; returns the holder. */
function makePath(doc: Document, segments: string[]): Record<string, unknown> {
  let current = doc as Record<string, unknown>;
  for (const segment of segments.slice(0, -1)) {
    if (current[segment] === undefined || current[segment] === null) current[segment] = {};
    current = current[segment] as Record<string, unknown>;
  }
  return current;
}

function applyPlainUpdate(doc: Document, steps: PlainStep[]): boolean {
  let changed = false;
  for (const step of steps) {
    const { op, key, value } = step;
    // A missing holder is made now, step by step as mingo does, so that new keys come in mingo's order.
    if (step.holder === undefined && op !== '$unset') step.holder = makePath(doc, step.segments);
    const holder = step.holder;
    if (holder === undefined) continue;
    const previous = holder[key];
    if (op === '$set') {
      if (mingoIsEqual(previous, value)) continue;
      holder[key] = mingoCloneDeep(value);
      changed = true;
    } else if (op === '$unset') {
      if (!Object.prototype.hasOwnProperty.call(holder, key)) continue;
      delete holder[key];
      if (previous !== undefined) changed = true;
    } else if (typeof previous === 'number' || previous === undefined) {
      const next = (previous || 0) + (value as number);
      holder[key] = next;
      if (next !== previous) changed = true;
    }
  }
  return changed;
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
  if (!hasKeys(projection)) return doc;
  const fields = includedFields(projection);
  if (fields) return pickFields(doc, fields);
  const excluded = excludedFields(projection);
  if (excluded) return dropFields(doc, excluded);
  return idFirst(mingoFind<T>([doc], {}, projection as MingoProjection).all()[0]);
}

/** The fields a projection includes, in mingo's order (sorted), and whether `_id` is one. */
export type IncludedFields = { id: boolean; names: string[] };

/**
 * The fields of a plain inclusion projection (`{ a: 1, b: 1 }`, `_id` included unless 0, top-level names only),
 * else undefined (mingo projects it). mingo builds a query and copies its operator tables for each projection;
 * these are the projections the services ask for (an `_id`, a few fields).
 */
export function includedFields(projection: Projection): IncludedFields | undefined {
  const names: string[] = [];
  let id = true;
  for (const [name, value] of Object.entries(projection)) {
    if (name === '_id') {
      if (value === 0) id = false;
      else if (value !== 1) return undefined;
    } else if (value === 1 && !name.includes('.') && !name.startsWith('$')) {
      names.push(name);
    } else {
      return undefined;
    }
  }
  if (names.length === 0 && !id) return undefined;
  return { id, names: names.sort() };
}

/** What mingo's projection gives for a plain inclusion (after `idFirst`): `_id`, then the fields that are defined. */
export function pickFields<T extends Document>(doc: T, fields: IncludedFields): T {
  const picked: Record<string, unknown> = {};
  if (fields.id && doc._id !== undefined) picked._id = doc._id;
  for (const name of fields.names) if (doc[name] !== undefined) picked[name] = doc[name];
  return picked as T;
}

/**
 * The top-level names of a plain exclusion projection (`{ words: 0, title_words: 0 }`: what the search service asks
 * of every result), else undefined (mingo projects it).
 */
export function excludedFields(projection: Projection): Set<string> | undefined {
  const names = Object.keys(projection);
  const plain = (name: string) => projection[name] === 0 && !name.includes('.') && !name.startsWith('$');
  return names.length > 0 && names.every(plain) ? new Set(names) : undefined;
}

/** What mingo's projection gives for a plain exclusion (after `idFirst`): the document without those fields. */
export function dropFields<T extends Document>(doc: T, excluded: ReadonlySet<string>): T {
  const kept: Record<string, unknown> = {};
  if (doc._id !== undefined && !excluded.has('_id')) kept._id = doc._id;
  for (const [name, value] of Object.entries(doc)) if (name !== '_id' && !excluded.has(name)) kept[name] = value;
  return kept as T;
}

/**
 * Query operators alone, for filters that use no aggregation expression: mingo's Query copies every operator
 * table of its context when it is made (hundreds of entries with the default context, for every query).
 */
const QUERY_CONTEXT = Context.init({ query: queryOperators });

/** A mingo matcher for `filter`, on the query operators alone unless it has an aggregation expression (`$expr`). */
export function matcher(filter: Filter): { test(doc: unknown): boolean } {
  return usesExpression(filter) ? new Query(filter) : new BareQuery(filter, { context: QUERY_CONTEXT });
}

function usesExpression(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(usesExpression);
  if (!isPlainObject(value)) return false;
  for (const [key, item] of Object.entries(value)) if (key === '$expr' || usesExpression(item)) return true;
  return false;
}
