/**
 * Query-builder criteria (`[{i, o, v}]`, as `@querystring-search` and Collections hold them) translated into
 * catalog filter clauses, through the same index table as `@search`.
 */
import { badRequest, clip } from '@cms/shared';
import { depthOf } from './catalog-entry';
import { indexNamed, type IndexDef } from './indexes';
import { OPERATION_PREFIX, operatorSuffix } from './querystring-config';
import { escapeRegExp, normalise, parseTextQuery, type TextMatch } from './text';

export interface Criterion {
  i: string;
  o: string;
  v?: unknown;
}

export interface CriteriaContext {
  /** Site-relative path of the context: relative paths start there. */
  contextPath: string;
  /** The caller's user id, for `string.currentUser`; null when anonymous. */
  principalId: string | null;
  now: Date;
  /** The path of the object with this UID, for a path criterion naming a UID; null when none. */
  pathOfUid(uid: string): Promise<string | null>;
}

type Clause = Record<string, unknown>;

const UID_PATTERN = /^[0-9a-f]{32}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What criteria ask for: filter clauses and text matches, all of which must hold. */
export interface CriteriaConditions {
  clauses: Clause[];
  text: TextMatch[];
}

/** The criteria's conditions, all of which must match; a bad criterion is 400 naming it. */
export async function criteriaConditions(
  criteria: readonly Criterion[],
  ctx: CriteriaContext,
): Promise<CriteriaConditions> {
  const clauses: Clause[] = [];
  const text: TextMatch[] = [];
  const paths: Clause[] = [];
  for (const [n, criterion] of criteria.entries()) {
    const where = `query.${n}`;
    const op = operatorSuffix(criterion.o);
    if (!op) throw refused(where, `unknown operator "${clip(criterion.o)}"`);
    if (criterion.i === 'show_inactive') {
      // Whether inactive (expired, not yet effective) content shows: the catalog does not hide it yet.
      if (op !== 'string.showInactive') throw refused(where, `operator ${OPERATION_PREFIX}${op} does not apply`);
      continue;
    }
    // Always the caller's own (see viewerFilter), whatever the query says.
    if (criterion.i === 'allowedRolesAndUsers') continue;
    const index = indexNamed(criterion.i) ?? (criterion.i === 'isDefaultPage' ? DEFAULT_PAGE : undefined);
    if (!index) throw refused(where, `unknown index "${clip(criterion.i)}"`);
    if (index.kind === 'path') paths.push(await pathClause(op, criterion.v, ctx, where));
    else if (index.kind === 'text' && (op === 'string.contains' || op === 'string.is')) {
      // Every word must be found; a trailing `*` makes a prefix.
      text.push({ field: index.field, terms: parseTextQuery(string(criterion.v, where)) });
    } else clauses.push(clauseFor(index, op, criterion.v, ctx, where));
  }
  if (paths.length === 1) clauses.push(paths[0]);
  else if (paths.length > 1) clauses.push({ $or: paths });
  return { clauses, text };
}

/** The query builder's name of `is_default_page`. */
const DEFAULT_PAGE: IndexDef = { field: 'is_default_page', kind: 'boolean' };

function clauseFor(index: IndexDef, op: string, value: unknown, ctx: CriteriaContext, where: string): Clause {
  const { field, kind } = index;
  if (op.startsWith('date.')) {
    if (kind !== 'date') throw refused(where, `a date operator on a non-date index`);
    return { [field]: dateRange(op, value, ctx.now, where) };
  }
  switch (op) {
    case 'selection.any':
      return { [field]: { $in: strings(value, where) } };
    case 'selection.all':
      return { [field]: { $all: strings(value, where) } };
    case 'selection.none':
      return { [field]: { $nin: strings(value, where) } };
    case 'string.currentUser':
      // An anonymous caller created nothing.
      return ctx.principalId ? { [field]: ctx.principalId } : { _id: { $in: [] } };
    case 'string.contains':
    case 'string.is':
      if (op === 'string.contains') {
        return { [field]: { $regex: escapeRegExp(normalise(string(value, where))) } };
      }
      return { [field]: string(value, where) };
    case 'string.isNot':
      return { [field]: { $ne: string(value, where) } };
    case 'int.is':
      return { [field]: number(value, where) };
    case 'int.lessThan':
      return { [field]: { $lt: number(value, where) } };
    case 'int.largerThan':
      return { [field]: { $gt: number(value, where) } };
    case 'boolean.isTrue':
      return { [field]: true };
    case 'boolean.isFalse':
      return { [field]: { $ne: true } };
    default:
      throw refused(where, `operator ${OPERATION_PREFIX}${op} does not apply here`);
  }
}

function dateRange(op: string, value: unknown, now: Date, where: string): Record<string, string> {
  const startOfDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const iso = (ms: number) => new Date(ms).toISOString();
  const today = startOfDay.getTime();
  switch (op) {
    case 'date.lessThan':
      return { $lt: date(value, where) };
    case 'date.largerThan':
      return { $gt: date(value, where) };
    case 'date.between': {
      if (!Array.isArray(value) || value.length !== 2) throw refused(where, 'date.between takes two dates');
      const [from, to] = [date(value[0], where), date(value[1], where)];
      return { $gte: from, $lte: to };
    }
    case 'date.today':
      return { $gte: iso(today), $lt: iso(today + DAY_MS) };
    case 'date.beforeToday':
      return { $lt: iso(today) };
    case 'date.afterToday':
      return { $gte: iso(today + DAY_MS) };
    case 'date.lessThanRelativeDate': {
      // Within the next N days (a negative N: the last N days).
      const end = now.getTime() + days(value, where) * DAY_MS;
      return { $gte: iso(Math.min(now.getTime(), end)), $lte: iso(Math.max(now.getTime(), end)) };
    }
    case 'date.largerThanRelativeDate': {
      const begin = now.getTime() - days(value, where) * DAY_MS;
      return { $gte: iso(Math.min(now.getTime(), begin)), $lte: iso(Math.max(now.getTime(), begin)) };
    }
    case 'date.beforeRelativeDate':
      return { $lt: iso(today - days(value, where) * DAY_MS) };
    case 'date.afterRelativeDate':
      return { $gte: iso(today + (days(value, where) + 1) * DAY_MS) };
    default:
      throw refused(where, `unknown date operator`);
  }
}

async function pathClause(op: string, value: unknown, ctx: CriteriaContext, where: string): Promise<Clause> {
  if (!['string.absolutePath', 'string.relativePath', 'string.path'].includes(op)) {
    throw refused(where, `operator ${OPERATION_PREFIX}${op} does not apply to path`);
  }
  const raw = string(Array.isArray(value) && value.length === 1 ? value[0] : value, where);
  const [spec, depthText] = raw.split('::');
  let depth: number | undefined;
  if (depthText !== undefined) {
    depth = Number(depthText);
    if (!Number.isInteger(depth)) throw refused(where, 'the depth after "::" must be an integer');
    if (depth < 0) depth = undefined;
  }
  let root: string;
  if (UID_PATTERN.test(spec.trim())) {
    const found = await ctx.pathOfUid(spec.trim());
    if (found === null) return { _id: { $in: [] } };
    root = found;
  } else if (op === 'string.relativePath') {
    root = joinPath(ctx.contextPath, spec);
  } else {
    root = joinPath('/', spec);
  }
  const clause: Clause = { path_parents: root };
  if (depth !== undefined) {
    const base = depthOf(root);
    clause.depth = depth === 0 ? base : { $gt: base, $lte: base + depth };
  }
  return clause;
}

/** `relative` (`..`, `./sub`, `/abs`) resolved against `base`, never above the site root. */
function joinPath(base: string, relative: string): string {
  const segments = relative.startsWith('/') ? [] : base.split('/').filter(Boolean);
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return '/' + segments.join('/');
}

function strings(value: unknown, where: string): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((v) => typeof v === 'string' || typeof v === 'number')) {
    throw refused(where, 'the value must be a string or a list of strings');
  }
  return list.map(String);
}

function string(value: unknown, where: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw refused(where, 'the value must be a string');
}

function number(value: unknown, where: string): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
  if (!Number.isFinite(n)) throw refused(where, 'the value must be a number');
  return n;
}

function days(value: unknown, where: string): number {
  const n = number(value, where);
  if (Math.abs(n) > 100_000) throw refused(where, 'too many days');
  return n;
}

/** A date as the catalog holds dates (ISO instants); `YYYY/MM/DD` and `YYYY-MM-DD` are midnight UTC. */
function date(value: unknown, where: string): string {
  const text = string(value, where)
    .trim()
    .replace(/^(\d{4})\/(\d{2})\/(\d{2})/, '$1-$2-$3');
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(ms)) throw refused(where, 'not a date (YYYY-MM-DD)');
  return new Date(ms).toISOString();
}

function refused(where: string, message: string) {
  return badRequest(`Invalid query criterion ${where}: ${message}`, [{ field: where, message }]);
}
