import { badRequest, clip, notFound, originalName, type FieldError } from '@cms/shared';
import type { z } from 'zod';
import { findRecord, RECORDS, type JsonValue, type RecordDefinition } from './records';
import { RecordChanges } from './changes';
import type { RegistryValueStore } from './repository';

/** Done before a valid write is stored, with its values; rejecting stops the write (nothing is stored). */
export type RecordsEffect = (values: ReadonlyMap<string, JsonValue>, requestId: string) => Promise<void>;

export interface RecordWithValue {
  record: RecordDefinition;
  value: JsonValue;
}

export interface RecordPage {
  items: RecordWithValue[];
  total: number;
}

/**
 * The registry's rules: every record has a value (the stored one, or the
 * record's initial value while it was never set), and a change is applied
 * only when every name and value in it is valid.
 */
export class Registry {
  constructor(
    private readonly store: RegistryValueStore,
    /** Told of every write, so that other services' caches drop what changed. */
    private readonly changes = new RecordChanges(),
    /** What must happen before some writes are stored (language-roots.ts); a failure stops the write. */
    private readonly effects: readonly RecordsEffect[] = [],
  ) {}

  /** Records whose name starts with `prefix`, sorted by name, `size` of them from `start`. */
  async list(prefix: string, start: number, size: number): Promise<RecordPage> {
    // The prefix may be written with the original names too (addendum §8): `plone.`, `Products.CMFPlone`.
    const matching = RECORDS.filter((r) => r.name.startsWith(prefix) || originalName(r.name).startsWith(prefix));
    const page = matching.slice(start, start + size);
    const stored = await this.store.read(page.map((r) => r.name));
    return {
      items: page.map((record) => ({ record, value: currentValue(record, stored) })),
      total: matching.length,
    };
  }

  /** The value of one record; 404 for an unknown name. */
  async value(name: string): Promise<JsonValue> {
    const record = findRecord(name);
    if (!record) throw notFound(`No registry record named "${clip(name)}"`);
    return currentValue(record, await this.store.read([name]));
  }

  /** Values of several records by name; 404 naming every unknown one. */
  async values(names: readonly string[]): Promise<Record<string, JsonValue>> {
    const unknown = names.filter((name) => !findRecord(name));
    if (unknown.length) throw notFound(`No registry record named ${clip(unknown.map((n) => `"${n}"`).join(', '))}`);
    const unique = [...new Set(names)];
    const stored = await this.store.read(unique);
    return Object.fromEntries(unique.map((name) => [name, currentValue(findRecord(name)!, stored)]));
  }

  /**
   * Sets records from a body mapping names to new values. Every name and value
   * is checked first; if any is wrong, nothing is written (400, one error per
   * wrong name or value).
   */
  async update(changes: unknown, requestId = 'registry-update'): Promise<void> {
    if (typeof changes !== 'object' || changes === null || Array.isArray(changes)) {
      throw badRequest('The body must be a JSON object mapping registry record names to their new values', [
        { field: '(body)', message: 'Expected an object' },
      ]);
    }
    const errors: FieldError[] = [];
    const values = new Map<string, JsonValue>();
    for (const [name, value] of Object.entries(changes)) {
      const record = findRecord(name);
      if (!record) {
        errors.push({ field: clip(name), message: 'No such registry record' });
        continue;
      }
      const result = record.schema.safeParse(value);
      if (result.success) values.set(name, result.data);
      else errors.push(...fieldErrors(name, result.error));
    }
    if (errors.length) {
      throw badRequest(
        clip(
          `Invalid registry values; nothing was changed: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`,
          1000,
        ),
        errors,
      );
    }
    if (values.size === 0) return;
    for (const effect of this.effects) await effect(values, requestId);
    try {
      await this.store.write(values);
    } finally {
      // Also after a failed write: part of it may have been stored.
      await this.changes.publish([...values.keys()]);
    }
  }
}

/** The stored value when it still matches the record's definition, otherwise the initial value. */
function currentValue(record: RecordDefinition, stored: Map<string, unknown>): JsonValue {
  if (!stored.has(record.name)) return record.initial;
  const result = record.schema.safeParse(stored.get(record.name));
  return result.success ? result.data : record.initial;
}

/** One error per problem, each under the record's name; a problem inside a list says which element. */
function fieldErrors(name: string, error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    field: name,
    message: issue.path.length ? `item ${issue.path.join('.')}: ${issue.message}` : issue.message,
  }));
}
