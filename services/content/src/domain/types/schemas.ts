/**
 * Write validation derived from the type definitions: one zod schema for a
 * create (required fields enforced) and one for a patch (every field
 * optional), both rejecting unknown members. The output holds normalized
 * values: instants as ISO-8601 UTC, choice tokens, deduplicated lists.
 */
import { z } from 'zod';
import { RICHTEXT_CONTENT_TYPES, type ContentType, type FieldDef } from '@cms/shared';

/** A file or image upload inside a JSON body (addendum §8); the file storage checks the bytes. */
export const uploadSchema = z
  .object({
    data: z.string(),
    encoding: z.literal('base64', { errorMap: () => ({ message: 'only "base64" is supported' }) }),
    filename: z.string().max(1000).nullish(),
    'content-type': z.string().max(255).nullish(),
  })
  .strict();

export type Upload = z.infer<typeof uploadSchema>;

/** Rich text as stored and served. */
export interface RichTextValue {
  'content-type': string;
  data: string;
  encoding: string;
}

/** One criterion of a query-builder query. */
export const criterionSchema = z
  .object({
    i: z.string().min(1).max(200),
    o: z.string().min(1).max(200),
    v: z
      .union([
        z.string(),
        z.number(),
        z.boolean(),
        z.null(),
        z.array(z.union([z.string(), z.number()])),
        z.record(z.unknown()),
      ])
      .optional(),
  })
  .strict();

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function validDay(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * An ISO-8601 date-time (or a date, meaning its midnight) as a UTC instant; a
 * value without a zone is UTC, as content dates are served without one.
 */
export function parseInstant(text: string): string | null {
  const m = DATETIME.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac, zone] = m;
  if (!validDay(+y, +mo, +d) || +h > 23 || +mi > 59 || +s > 59) return null;
  const ms = frac ? `.${frac.slice(0, 3).padEnd(3, '0')}` : '';
  const offset = !zone || zone === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const time = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${ms}${offset}`);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** A calendar date `YYYY-MM-DD`, or null. */
export function parseDate(text: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return m && validDay(+m[1], +m[2], +m[3]) ? text : null;
}

const tokenOf = (value: unknown) =>
  value !== null && typeof value === 'object' && typeof (value as { token?: unknown }).token === 'string'
    ? (value as { token: string }).token
    : value;

function choiceMessage(field: FieldDef): string {
  const tokens = (field.choices ?? []).map(([token]) => token);
  return tokens.length <= 10 ? `must be one of: ${tokens.join(', ')}` : 'not one of the allowed values';
}

function token(field: FieldDef) {
  const allowed = new Set((field.choices ?? []).map(([t]) => t));
  // Clients send a token, or the `{title, token}` term a read gave them.
  return z.preprocess(
    tokenOf,
    z.string().refine((t) => allowed.has(t), { message: choiceMessage(field) }),
  );
}

/** A single choice; the empty token (what a cleared select sends) unsets an optional one. */
function choice(field: FieldDef) {
  const allowed = new Set((field.choices ?? []).map(([t]) => t));
  return z.preprocess(
    tokenOf,
    z.string().transform((t, ctx) => {
      if (t === '' && !field.required) return null;
      if (allowed.has(t)) return t;
      ctx.addIssue({ code: 'custom', message: choiceMessage(field) });
      return z.NEVER;
    }),
  );
}

const unique = <T>(values: T[]) => [...new Set(values)];

/**
 * An array of at most `max` elements, a longer one refused by its length before any element is parsed: zod parses
 * every element before it checks `.max`, and a body the gateway lets through may bring 20,000 of them an array,
 * which then hold content's event loop for nothing (the answer is the same 400).
 */
function boundedArray<T extends z.ZodTypeAny>(element: T, max: number) {
  return z
    .unknown()
    .superRefine((value, ctx) => {
      if (Array.isArray(value) && value.length > max)
        ctx.addIssue({ code: 'too_big', type: 'array', maximum: max, inclusive: true, exact: false, fatal: true });
    })
    .pipe(z.array(element).max(max));
}

/** The schema of one field's value, null excluded. */
export function valueSchema(field: FieldDef): z.ZodTypeAny {
  const maxLength = field.maxLength;
  switch (field.kind) {
    case 'textline':
      return z
        .string()
        .max(maxLength ?? 1000)
        .regex(/^[^\r\n]*$/, 'must be a single line')
        .refine((v) => !field.required || v.length > 0, { message: 'Required' });
    case 'text':
      return z
        .string()
        .max(maxLength ?? 100_000)
        .refine((v) => !field.required || v.length > 0, { message: 'Required' });
    case 'richtext':
      return z.preprocess(
        (v) => (typeof v === 'string' ? { data: v } : v),
        z
          .object({
            data: z.string().max(maxLength ?? 2_000_000),
            'content-type': z.enum(RICHTEXT_CONTENT_TYPES).default('text/html'),
            encoding: z
              .string()
              .regex(/^utf-?8$/i, 'only utf-8 is supported')
              .default('utf-8'),
          })
          .strict()
          .transform((v): RichTextValue => ({ 'content-type': v['content-type'], data: v.data, encoding: 'utf-8' })),
      );
    case 'boolean':
      return z.boolean();
    case 'tristate':
      return z
        .union([z.boolean(), z.enum(['True', 'False'])], {
          errorMap: () => ({ message: 'must be true, false, "True" or "False"' }),
        })
        .transform((v) => v === true || v === 'True');
    case 'int':
      return z
        .number()
        .int()
        .min(field.min ?? Number.MIN_SAFE_INTEGER)
        .max(field.max ?? Number.MAX_SAFE_INTEGER);
    case 'float':
      return z
        .number()
        .finite()
        .min(field.min ?? -Number.MAX_VALUE)
        .max(field.max ?? Number.MAX_VALUE);
    case 'datetime':
      return z.string().transform((v, ctx) => {
        const instant = parseInstant(v);
        if (instant === null) {
          ctx.addIssue({ code: 'custom', message: 'not a date-time (YYYY-MM-DDTHH:MM:SS, optional zone)' });
          return z.NEVER;
        }
        return instant;
      });
    case 'date':
      return z.string().refine((v) => parseDate(v) !== null, { message: 'not a date (YYYY-MM-DD)' });
    case 'choice':
      return choice(field);
    case 'multichoice':
      return boundedArray(token(field), 1000).transform((v) => unique(v as string[]));
    case 'list':
      return boundedArray(z.string().max(maxLength ?? 1000), 1000).transform(unique);
    case 'url':
      return z
        .string()
        .max(maxLength ?? 2000)
        .url()
        .refine((v) => /^(https?|ftp):\/\//i.test(v), { message: 'must be an http, https or ftp URL' });
    case 'email':
      return z.string().max(254).email();
    case 'file':
      return uploadSchema;
    case 'image':
      return uploadSchema.refine((v) => !v['content-type'] || v['content-type'].startsWith('image/'), {
        message: 'an image must have an image/* content type',
        path: ['content-type'],
      });
    case 'relationlist':
      // A UID, a URL or site path, or a summary object with `UID` or `@id`; the content service resolves them.
      return boundedArray(
        z.preprocess(
          (v) =>
            v !== null && typeof v === 'object'
              ? ((v as Record<string, unknown>).UID ?? (v as Record<string, unknown>)['@id'])
              : v,
          z.string({ invalid_type_error: 'must be a UID, a URL, or an object with UID or @id' }).min(1).max(2000),
        ),
        1000,
      ).transform((v) => unique(v as string[]));
    case 'json':
      // null is not a value here: it unsets the field.
      return z.unknown().refine((v) => v !== undefined && v !== null, { message: 'Required' });
    case 'querystring':
      return boundedArray(criterionSchema, 100);
  }
}

/** A field's schema in a write: null unsets an optional field (and is refused for a required one). */
export function fieldSchema(field: FieldDef): z.ZodTypeAny {
  const value = valueSchema(field);
  return field.required ? value : value.nullable();
}

type Shape = Record<string, z.ZodTypeAny>;

/**
 * Members clients send with a write that are no fields: what a GET serializes around the fields (a client that
 * sends back what it read) and the bookkeeping of Volto's add form (`parent`, `selected`, `@static_behaviors`).
 * The original platform ignores every member it has no field for; these are ignored, and any other unknown name
 * is still refused, so that a misspelled field is a 400 rather than lost.
 */
const IGNORED_MEMBERS: ReadonlySet<string> = new Set([
  '@id',
  '@components',
  '@static_behaviors',
  'UID',
  'batching',
  'created',
  'is_folderish',
  'items',
  'items_total',
  'lock',
  'modified',
  'next_item',
  'parent',
  'previous_item',
  'review_state',
  'selected',
  'type_title',
  'version',
  'working_copy',
  'working_copy_of',
]);

function objectSchema(type: ContentType, shape: Shape) {
  const withoutIgnored = (value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).filter(([name]) => name in shape || !IGNORED_MEMBERS.has(name)))
      : value;
  return z.preprocess(
    withoutIgnored,
    z
      .object(shape)
      .catchall(
        z
          .unknown()
          .superRefine((_, ctx) =>
            ctx.addIssue({ code: 'custom', message: `unknown field: not in the schema of ${type.name}` }),
          ),
      ),
  ) as z.ZodType<Record<string, unknown>>;
}

/**
 * Built once per type object: a type whose definition changes is a new object, so its schemas are built again
 * (and the old ones go with the old type).
 */
const createCache = new WeakMap<ContentType, z.ZodType<Record<string, unknown>>>();
const patchCache = new WeakMap<ContentType, z.ZodType<Record<string, unknown>>>();

/** The body of a POST creating an object of this type. */
export function createSchema(type: ContentType): z.ZodType<Record<string, unknown>> {
  let schema = createCache.get(type);
  if (!schema) {
    const shape: Shape = {
      '@type': z.literal(type.name),
      layout: z.enum(type.layouts as [string, ...string[]]).optional(),
    };
    for (const field of type.fields)
      shape[field.name] = field.required ? fieldSchema(field) : fieldSchema(field).optional();
    schema = objectSchema(type, shape);
    createCache.set(type, schema);
  }
  return schema;
}

/** The body of a PATCH of an object of this type; `@type` may be sent when it is the object's own. */
export function patchSchema(type: ContentType): z.ZodType<Record<string, unknown>> {
  let schema = patchCache.get(type);
  if (!schema) {
    const shape: Shape = {
      '@type': z
        .literal(type.name, { errorMap: () => ({ message: `the type of an object cannot be changed (${type.name})` }) })
        .optional(),
      layout: z.enum(type.layouts as [string, ...string[]]).optional(),
    };
    for (const field of type.fields) shape[field.name] = fieldSchema(field).optional();
    schema = objectSchema(type, shape);
    patchCache.set(type, schema);
  }
  return schema;
}
