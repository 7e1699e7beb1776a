/**
 * `@users`: the accounts. Spec, authentication rule 4: a refusal here is 401 with the body `null`, for
 * anonymous and insufficiently privileged callers alike (`denial: 'null'`).
 */
import {
  badRequest,
  csvText,
  csvValues,
  forbidden,
  param,
  parseCsv,
  rolesHere,
  validationError,
  type EndpointCall,
} from '@cms/shared';
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from '../domain/passwords';
import { NullDenial, USER_ID, type UserView } from '../domain/users';
import { userJson } from '../domain/users-serialize';
import { callerOf, requestUrl } from './calls';
import { endpoint, operation } from './declarations';
import { resetPassword } from './users-reset-password';

const DEFAULT_LIMIT = 25;

const text = (max: number) => z.string().max(max).nullable().optional();
const email = z
  .union([z.literal(''), z.string().max(254).email()])
  .nullable()
  .optional();
const password = z.string().min(5, 'at least 5 characters').max(MAX_PASSWORD_LENGTH);

const newUserBody = z
  .object({
    username: z
      .string()
      .regex(USER_ID, 'letters, digits and ._@+- only, starting with a letter or digit, at most 100')
      .optional(),
    password: password.optional(),
    email,
    fullname: text(1000),
    description: text(10_000),
    home_page: text(2000),
    location: text(1000),
    roles: z.array(z.string().max(200)).max(100).optional(),
    groups: z.array(z.string().max(200)).max(1000).optional(),
    sendPasswordReset: z.boolean().optional(),
  })
  .strict();

/** The columns of the original platform's CSV export of users. */
const CSV_COLUMNS = ['id', 'username', 'fullname', 'email', 'roles', 'groups'] as const;
/** Most users a CSV export lists, and a CSV import creates (each password is hashed: the import's time grows). */
const MAX_CSV_USERS = 10_000;
const MAX_CSV_IMPORT = 500;
const MAX_CSV_BYTES = 1024 * 1024;

/**
 * A record of an imported CSV (the original's columns: `username,email,fullname,description,roles,home_page,
 * password`, and `groups`, `location`): an empty cell is no value, `roles` and `groups` are comma-separated.
 */
const csvUser = z
  .record(z.string(), z.string())
  .transform((cells) => {
    const user: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(cells)) {
      if (value.trim() === '') continue;
      user[column] =
        column === 'roles' || column === 'groups'
          ? value
              .split(',')
              .map((v) => v.trim())
              .filter(Boolean)
          : value;
    }
    return user;
  })
  .pipe(newUserBody);

function csvRow(view: UserView): string[] {
  const { user } = view;
  return [
    user._id,
    user.login,
    user.fullname,
    user.email,
    view.roles.join(', '),
    view.groups.map((g) => g.id).join(', '),
  ];
}

const portraitBody = z
  .object({
    data: z.string(),
    encoding: z.literal('base64'),
    filename: z.string().max(255).optional(),
    'content-type': z.string().max(255),
    scale: z.boolean().optional(),
  })
  .strict();

const userChangesBody = z
  .object({
    email,
    fullname: text(1000),
    description: text(10_000),
    home_page: text(2000),
    location: text(1000),
    password: password.optional(),
    old_password: z.string().max(MAX_PASSWORD_LENGTH).optional(),
    roles: z.record(z.string().max(200), z.boolean()).optional(),
    portrait: portraitBody.nullable().optional(),
  })
  .strict();

const listQuery = z.object({
  query: param.string().optional(),
  search: param.string().optional(),
  'groups-filter': param.strings().optional(),
  limit: param.int({ min: 1 }).optional(),
});

type Call = EndpointCall<unknown, Record<string, string>, unknown, unknown>;

function isManager(call: Call): boolean {
  return rolesHere(call.principal).has('Manager');
}

/** List, create, delete: Managers only (spec, users rule 1 and 2). */
function managerOnly(call: Call): void {
  if (!isManager(call)) throw forbidden('Only a Manager may do this');
}

/** Read and update: a Manager, or the user itself (spec, users rules 3 and 4). */
function selfOrManager(call: Call): void {
  if (call.params.id !== undefined && call.principal?.id === call.params.id) return;
  managerOnly(call);
}

/** The domain's own refusals (e.g. a non-Manager changing roles) answered like the others. */
async function refusing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof NullDenial) throw forbidden('Not allowed on this user');
    throw error;
  }
}

export const users = endpoint({
  name: 'users',
  service: 'identity',
  context: 'site-root',
  denial: 'null',
  operations: {
    GET: operation({
      summary: 'The users, as a JSON array (Manager), or one user (Manager or the user)',
      paths: ['', ':id'],
      permission: { guard: 'a Manager, or the user reading itself' },
      guard: selfOrManager,
      query: listQuery,
      handle: (call, { users }) =>
        refusing(async () => {
          if (call.params.id !== undefined) {
            const view = await users.get(callerOf(call), call.params.id);
            return {
              status: 200,
              body: userJson(view, call.publicUrl, requestUrl(call)),
            };
          }
          const csv = call.accepts('text/csv');
          const { items } = await users.list(callerOf(call), {
            query: call.query.query,
            search: call.query.search,
            groups: call.query['groups-filter'] ?? [],
            limit: csv ? MAX_CSV_USERS : (call.query.limit ?? DEFAULT_LIMIT),
          });
          if (csv) {
            return {
              status: 200,
              headers: {
                'Content-Type': 'text/csv; charset=utf-8',
                'Content-Disposition': 'attachment; filename=users.csv',
              },
              raw: Buffer.from(csvText(CSV_COLUMNS, items.map(csvRow))),
            };
          }
          // A JSON array, as the specification and its clients (`@plone/client`) expect (addendum §8).
          const url = requestUrl(call);
          return {
            status: 200,
            body: items.map((view) => userJson(view, call.publicUrl, url)),
          };
        }),
    }),
    POST: operation({
      summary:
        'Creates a user (Manager); `<id>/reset-password` mails a reset link (empty body), or sets a new password ' +
        'with `reset_token` or `old_password` and `new_password`',
      paths: ['', ':id/reset-password'],
      permission: { guard: 'creation: Managers; a reset: the token or the old password in the body is the proof' },
      guard: (call) => (call.params.id === undefined ? managerOnly(call) : undefined),
      // Two bodies by sub-path: each is validated by its own schema below (users-reset-password.ts for a reset).
      body: z.unknown(),
      // Or a CSV file of users (the original's bulk creation), one per record: all of them, or none.
      upload: { field: 'file', types: ['text/csv', 'application/csv'], maxBytes: MAX_CSV_BYTES },
      handle: (call, { users, resets }) =>
        refusing(async () => {
          if (call.params.id !== undefined) {
            if (call.upload) throw badRequest('A password reset takes a JSON body, not a file');
            return resetPassword(call, resets);
          }
          if (call.upload) {
            const records = parseCsv(call.upload.text, { maxRecords: MAX_CSV_IMPORT });
            const inputs = csvValues(records, csvUser);
            if (!inputs.length) throw badRequest('The CSV file has no users');
            const labels = records.map((r) => `line ${r.line}`);
            const views = await users.createMany(callerOf(call), inputs, labels);
            const url = requestUrl(call);
            return {
              status: 201,
              body: { items: views.map((view) => userJson(view, call.publicUrl, url)), items_total: views.length },
            };
          }
          const parsed = newUserBody.safeParse(call.body);
          if (!parsed.success) throw validationError(parsed.error);
          const view = await users.create(callerOf(call), () => parsed.data);
          return {
            status: 201,
            headers: { Location: `${call.publicUrl}/@users/${view.user._id}` },
            body: userJson(view, call.publicUrl, requestUrl(call)),
          };
        }),
    }),
    PATCH: operation({
      summary: 'Changes a user (the user or a Manager); `roles` toggles roles (Manager)',
      paths: [':id'],
      permission: { guard: 'a Manager, or the user itself' },
      guard: selfOrManager,
      body: userChangesBody,
      handle: (call, { users }) =>
        refusing(async () => {
          await users.update(callerOf(call), call.params.id, () => call.body);
          return { status: 204 };
        }),
    }),
    DELETE: operation({
      summary: 'Deletes a user (Manager)',
      paths: [':id'],
      permission: { guard: 'Managers only' },
      guard: managerOnly,
      handle: (call, { users }) =>
        refusing(async () => {
          await users.remove(callerOf(call), call.params.id);
          return { status: 204 };
        }),
    }),
  },
});
