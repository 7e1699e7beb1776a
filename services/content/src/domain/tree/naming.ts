import { badRequest } from '@cms/shared';

const MAX_ID_LENGTH = 100;

/** `My Document` → `my-document`: the short name a title suggests (cms.namefromtitle). */
export function idFromTitle(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/, '');
  return slug || fallback.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

/**
 * Names the gateway answers itself at the top of the site (probes, metrics, the OpenAPI document;
 * gateway/src/app.ts, whose routes ignore case): an object there by such a name would never be reached.
 */
const RESERVED_ROOT_IDS: ReadonlySet<string> = new Set(['healthz', 'readyz', 'metrics', 'openapi.json']);

/** Whether `id` may not be taken by a child of the object at `parentPath` (see RESERVED_ROOT_IDS). */
export function reservedId(parentPath: string, id: string): boolean {
  return parentPath === '/' && RESERVED_ROOT_IDS.has(id.toLowerCase());
}

/**
 * Ids become path segments: refuse what the gateway would not route to, and, in the folder at `parentPath`
 * (when given), a name it keeps for itself.
 */
export function checkId(id: string, parentPath?: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._~-]*$/.test(id) || id.length > MAX_ID_LENGTH) {
    // The id is quoted only when it is short enough to be one: an error never echoes unbounded input.
    const quoted = id.length <= MAX_ID_LENGTH ? ` "${id}"` : '';
    throw badRequest(
      `Invalid id${quoted}: use letters, digits, "-", "_", "." and "~", starting with a letter or digit, at most ${MAX_ID_LENGTH}`,
      [{ field: 'id', message: 'invalid short name' }],
    );
  }
  if (parentPath !== undefined && reservedId(parentPath, id)) {
    throw badRequest(`The id "${id}" is reserved at the top of the site: the gateway answers that path itself`, [
      { field: 'id', message: 'reserved short name' },
    ]);
  }
  return id;
}

/** Candidates for a free id: `doc`, `doc-1`, `doc-2`, … */
export function* idCandidates(base: string): Generator<string> {
  yield base;
  for (let n = 1; ; n++) yield `${base}-${n}`;
}
