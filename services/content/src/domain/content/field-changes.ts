/** How the field values of a write become members of the stored object (see field-values.ts for where each lives). */
import { badRequest, type AppError, type FieldError } from '@cms/shared';
import { CORE_FIELDS, fileValuesOf } from './field-values';
import type { FileValue } from '../files/files';
import type { ContentDoc } from './model';
import { storedJsonText } from './stored-json';
import type { ContentType, TypeRegistry } from '../types';

/** Validated, normalized field values of a write (output of the type's create or patch schema). */
export type FieldValues = Readonly<Record<string, unknown>>;

/** Members of a write body that are not stored as fields. */
const NOT_STORED = new Set(['@type', 'id']);

/** The values of a write that are stored: not `@type` or `id`, nor a transient field (a change note). */
export function storedNames(type: ContentType, values: FieldValues): string[] {
  return Object.keys(values).filter(
    (name) => values[name] !== undefined && !NOT_STORED.has(name) && !type.field(name)?.transient,
  );
}

export function pick(values: FieldValues, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((n) => [n, values[n]]));
}

/** The top-level members of the object that a write of `names` sets (null resets a core field). */
export function coreChanges(names: string[], changes: Record<string, unknown>): Partial<ContentDoc> {
  const set: Record<string, unknown> = {};
  for (const name of names) if (CORE_FIELDS.has(name)) set[name] = changes[name] ?? coreDefault(name);
  return set as Partial<ContentDoc>;
}

/** Whether a write of `names` changes `doc.fields` (the fields that are not core ones). */
export function changesSchemaFields(names: string[]): boolean {
  return names.some((name) => !CORE_FIELDS.has(name));
}

function coreDefault(name: string): unknown {
  if (name === 'title' || name === 'description') return '';
  if (name === 'creators') return [];
  return null;
}

/** `doc.fields` after a write: set values replace, null unsets, uploads become their stored FileValue. */
export function fieldsAfter(
  type: ContentType,
  current: Record<string, unknown>,
  changes: Record<string, unknown>,
  ingested: Map<string, FileValue>,
): Record<string, unknown> {
  const fields = { ...current };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined || CORE_FIELDS.has(name) || NOT_STORED.has(name)) continue;
    const field = type.field(name);
    if (field?.transient) continue;
    if (value === null) delete fields[name];
    else if (ingested.has(name)) fields[name] = ingested.get(name);
    // JSON values may hold keys the store does not allow (`$x`, `a.b`): kept as text.
    else if (field?.kind === 'json') fields[name] = storedJsonText(value);
    else fields[name] = value;
  }
  return fields;
}

/** Blobs the old version held that the new one no longer does. */
export function replacedFiles(before: ContentDoc, after: ContentDoc, types: TypeRegistry): FileValue[] {
  const kept = new Set(fileValuesOf(after, types).map((v) => v.blob_id));
  return fileValuesOf(before, types).filter((v) => !kept.has(v.blob_id));
}

/** 400 unless the type's rules across fields hold on `values` (every field's value after the write). */
export function checkInvariants(type: ContentType, values: Record<string, unknown>): void {
  const errors = type.invariants?.(values) ?? [];
  if (errors.length) throw invalid(errors);
}

/** 400 with per-field errors, worded like a schema mismatch. */
export function invalid(errors: FieldError[]): AppError {
  return badRequest(`Invalid request: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, errors);
}
