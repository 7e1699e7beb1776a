/**
 * Schemas for query parameters. A query reaches an operation's schema as an object mapping each key (Zope type
 * suffixes such as `:list` folded, addendum §7) to every value sent for it, in order; these helpers read such a
 * list as one value or several:
 *   query: z.object({ b_start: param.int({ min: 0 }).optional(), expand: param.list().optional() })
 */
import { z } from 'zod';
import { QueryParams } from './query';

/** Longest value of one query parameter that a schema reads; longer is a 400 (never echoed back). */
const MAX_VALUE_LENGTH = 10_000;

const values = z.array(z.string().max(MAX_VALUE_LENGTH, `longer than ${MAX_VALUE_LENGTH} characters`));
/** The last value given wins, as in the reference's form handling of repeated single-valued parameters. */
const single = values.transform((all) => all[all.length - 1]);

export const param = {
  /** One string. */
  string: () => single,
  /** Every value, each also split at commas (`expand=a,b` and `expand:list=a&expand:list=b`). */
  list: () =>
    values.transform((all) =>
      all.flatMap((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ),
  /** Every value, as sent. */
  strings: () => values,
  /** A whole number within bounds. */
  int: ({ min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER }: { min?: number; max?: number } = {}) =>
    single.pipe(
      z
        .string()
        .regex(/^-?\d+$/, 'not a whole number')
        .transform(Number)
        .pipe(z.number().int().min(min).max(max)),
    ),
  /** A switch that is on by being present (`?fullobjects`), unless its value says off (`0`, `false`). */
  flag: () => single.transform((v) => flagValue(v || true)),
  /** The boolean spellings of query strings (the reference takes `True`/`true`/`on`/`1`). */
  boolean: () =>
    single.transform((v, ctx) => {
      const value = v.trim().toLowerCase();
      if (['true', 'on', '1', 'yes'].includes(value)) return true;
      if (['false', 'off', '0', 'no', ''].includes(value)) return false;
      ctx.addIssue({ code: 'custom', message: 'expected true or false' });
      return z.NEVER;
    }),
};

/** A switch as clients send it: present (`?fullobjects`), `1`, `true`; absent, `0` or `false` is off. */
export function flagValue(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (value === true) return true;
  return !['0', 'false', 'False', 'no', 'off'].includes(String(value));
}

/** A query option where an empty value means "not given", as clients send cleared fields (`start=`). */
export function unlessEmpty<T extends z.ZodTypeAny>(schema: T) {
  return z.preprocess(
    (values) => (Array.isArray(values) && values.every((v) => String(v).trim() === '') ? undefined : values),
    schema.optional(),
  );
}

/** The object an operation's query schema validates: key → every value sent. */
export function queryInput(query: QueryParams): Record<string, string[]> {
  const input: Record<string, string[]> = Object.create(null);
  for (const key of query.keys()) input[key] = query.getAll(key);
  return input;
}

/** `b_start` / `b_size` of convention 6, for listings' query schemas. */
export const batchParams = {
  b_start: param.int({ min: 0 }).optional(),
  b_size: param.int({ min: 1 }).optional(),
};
