import type { QueryParam__Output } from '../generated/cms/common/v1/QueryParam';

/**
 * Query parameters as clients of this API send them: repeated keys kept, and
 * the Zope type suffixes of addendum §7 (`key:list`, `key:int`, `key:boolean`)
 * folded onto the plain key.
 */
export class QueryParams {
  private readonly values = new Map<string, string[]>();

  constructor(params: readonly QueryParam__Output[]) {
    for (const { key, value } of params) {
      const name = stripTypeSuffix(key);
      const list = this.values.get(name);
      if (list) list.push(value);
      else this.values.set(name, [value]);
    }
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  /** The first value, or undefined. */
  get(key: string): string | undefined {
    return this.values.get(key)?.[0];
  }

  getAll(key: string): string[] {
    return this.values.get(key) ?? [];
  }

  /** Values of a list parameter, also accepting comma-separated values (`expand=a,b`). */
  getList(key: string): string[] {
    return this.getAll(key).flatMap((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  }

  keys(): string[] {
    return [...this.values.keys()];
  }
}

const TYPE_SUFFIX = /:(list|int|boolean|record|records|string|float|long|tuple)$/;

export function stripTypeSuffix(key: string): string {
  return key.replace(TYPE_SUFFIX, '');
}
