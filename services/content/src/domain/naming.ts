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

/** Ids become path segments: refuse what the gateway would not route to. */
export function checkId(id: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._~-]*$/.test(id) || id.length > MAX_ID_LENGTH) {
    throw badRequest(
      `Invalid id "${id}": use letters, digits, "-", "_", "." and "~", starting with a letter or digit`,
      [{ field: 'id', message: 'invalid short name' }],
    );
  }
  return id;
}

/** Candidates for a free id: `doc`, `doc-1`, `doc-2`, … */
export function* idCandidates(base: string): Generator<string> {
  yield base;
  for (let n = 1; ; n++) yield `${base}-${n}`;
}
