/**
 * The caching settings (registry records `cms.caching_*`, control panel `caching`; defined in
 * services/config/src/domain/panel-records.ts) as the gateway applies them, read through the registry cache
 * (`RegistrySettings`: GetRecords, kept while its WatchRecords stream is open). When the config service cannot
 * be reached the safe defaults apply: every cache revalidates, nothing is shared, no proxy is purged.
 */
import type { AnswerKind, RegistrySettings } from '@cms/shared';

export interface CacheRules {
  /** The gateway keeps anonymous answers. */
  enabled: boolean;
  /** The gateway keeps each logged-in principal's answers too (for that principal only). */
  authenticated: boolean;
  maxAge: Record<Exclude<AnswerKind, 'other'>, number>;
  sMaxAge: Record<Exclude<AnswerKind, 'other'>, number>;
  mustRevalidate: boolean;
  /** Response header listing the UIDs an answer depends on. */
  tagHeader: string;
  purgeProxies: string[];
}

export const DEFAULT_CACHE_RULES: CacheRules = {
  enabled: true,
  authenticated: false,
  maxAge: { content: 0, listing: 0, site: 0, file: 0 },
  sMaxAge: { content: 0, listing: 0, site: 0, file: 0 },
  mustRevalidate: true,
  tagHeader: 'Cache-Tag',
  purgeProxies: [],
};

const KINDS = ['content', 'listing', 'site', 'files'] as const;
const RECORDS = [
  'cms.caching_enabled',
  'cms.caching_authenticated',
  'cms.caching_must_revalidate',
  'cms.caching_tag_header',
  'cms.caching_purge_proxies',
  ...KINDS.flatMap((kind) => [`cms.caching_${kind}_max_age`, `cms.caching_${kind}_s_maxage`]),
];

const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;

/** Reads the rules from the registry; `fallback` (the defaults) when it cannot. */
export function registryCacheRules(
  registry: () => Pick<RegistrySettings, 'derived'>,
): (requestId: string) => Promise<CacheRules> {
  return async (requestId) => {
    try {
      return await registry().derived(RECORDS, requestId, cacheRulesOf);
    } catch {
      return DEFAULT_CACHE_RULES;
    }
  };
}

export function cacheRulesOf(values: Record<string, unknown>): CacheRules {
  const bool = (name: string, fallback: boolean) =>
    typeof values[name] === 'boolean' ? (values[name] as boolean) : fallback;
  const secs = (name: string) => {
    const value = values[name];
    return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
  };
  const seconds = (suffix: string) => ({
    content: secs(`cms.caching_content_${suffix}`),
    listing: secs(`cms.caching_listing_${suffix}`),
    site: secs(`cms.caching_site_${suffix}`),
    file: secs(`cms.caching_files_${suffix}`),
  });
  const tagHeader = values['cms.caching_tag_header'];
  const proxies = values['cms.caching_purge_proxies'];
  return {
    enabled: bool('cms.caching_enabled', DEFAULT_CACHE_RULES.enabled),
    authenticated: bool('cms.caching_authenticated', DEFAULT_CACHE_RULES.authenticated),
    maxAge: seconds('max_age'),
    sMaxAge: seconds('s_maxage'),
    mustRevalidate: bool('cms.caching_must_revalidate', DEFAULT_CACHE_RULES.mustRevalidate),
    tagHeader: typeof tagHeader === 'string' && HEADER_NAME.test(tagHeader) ? tagHeader : DEFAULT_CACHE_RULES.tagHeader,
    purgeProxies: Array.isArray(proxies) ? proxies.filter(isHttpUrl) : [],
  };
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Cache-Control of a successful GET: an anonymous answer as the rules say for its kind (public); a logged-in
 * caller's is private and revalidated every time, whatever the rules (it may show what others may not see).
 */
export function cacheControlOf(rules: CacheRules, kind: AnswerKind, anonymous: boolean): string {
  if (!anonymous) return 'private, no-cache';
  if (kind === 'other') return 'no-cache';
  const revalidate = rules.mustRevalidate ? ', must-revalidate' : '';
  return `public, max-age=${rules.maxAge[kind]}, s-maxage=${rules.sMaxAge[kind]}${revalidate}`;
}
