import {
  PURGE_GROUP,
  type DomainEvent,
  type EventBus,
  type Logger,
  type RegistrySettings,
  type Subscription,
} from '@cms/shared';

/** The caching settings the purges follow (registry `cms.caching_purge_proxies`, `cms.caching_tag_header`). */
export interface PurgeSettings {
  proxies: string[];
  tagHeader: string;
}

export type PurgeSettingsSource = (requestId: string) => Promise<PurgeSettings>;

/** One purge; resolves to the proxy's status. */
export type SendPurge = (url: string, headers: Record<string, string>) => Promise<number>;

const PURGE_TIMEOUT_MS = 5000;

export const sendPurge: SendPurge = async (url, headers) => {
  const response = await fetch(url, { method: 'PURGE', headers, signal: AbortSignal.timeout(PURGE_TIMEOUT_MS) });
  await response.arrayBuffer();
  return response.status;
};

/** What a content event changed: the UID (the tag) and the site paths whose answers show it. */
export function purgeTargetsOf(event: DomainEvent): { uid: string; paths: string[] } | null {
  const withParent = (path: string) => [path, ...(path === '/' ? [] : [path.slice(0, path.lastIndexOf('/')) || '/'])];
  switch (event.type) {
    case 'content.added':
    case 'content.modified':
    case 'content.ordered':
      return { uid: event.payload.uid, paths: withParent(event.payload.snapshot.path || '/') };
    case 'content.moved':
      return {
        uid: event.payload.uid,
        paths: [
          ...new Set([...withParent(event.payload.old_path || '/'), ...withParent(event.payload.new_path || '/')]),
        ],
      };
    case 'content.removed':
      return { uid: event.payload.uid, paths: withParent(event.payload.path || '/') };
    default:
      return null;
  }
}

/**
 * Sends each configured caching proxy a `PURGE` of the paths a content event changed (the object and its
 * parent's listing), carrying the object's UID in the tag header, so that a proxy banning by tag (Varnish
 * xkey, a CDN's surrogate keys) drops every answer that showed it. A proxy answering 5xx or not at all makes
 * the handler reject: the bus redelivers after a backoff. 404 is fine (nothing was cached).
 */
export function subscribeToPurges(
  bus: EventBus,
  settings: PurgeSettingsSource,
  log: Logger,
  send: SendPurge = sendPurge,
): Promise<Subscription> {
  return bus.subscribe({ ...PURGE_GROUP, prefetch: 8 }, async ({ event }) => {
    const targets = purgeTargetsOf(event);
    if (!targets) return;
    const { proxies, tagHeader } = await settings(event.requestId ?? event.id);
    if (proxies.length === 0) return;
    const failed: string[] = [];
    await Promise.all(
      proxies.flatMap((proxy) =>
        targets.paths.map(async (path) => {
          const url = proxy.replace(/\/+$/, '') + encodeURI(path);
          try {
            const status = await send(url, { [tagHeader]: targets.uid });
            if (status >= 500) failed.push(`${url}: ${status}`);
          } catch (error) {
            failed.push(`${url}: ${(error as Error).message}`);
          }
        }),
      ),
    );
    if (failed.length) {
      log.warn({ eventId: event.id, failed: failed.slice(0, 5) }, 'caching proxy purge failed; retried later');
      throw new Error(`purge failed at ${failed.length} proxy URL(s)`);
    }
  });
}

/** The purge settings read through the registry cache; an unusable value is the default (no proxies). */
export function registryPurgeSettings(registry: () => Pick<RegistrySettings, 'get'>): PurgeSettingsSource {
  return async (requestId) => {
    const values = await registry().get(['cms.caching_purge_proxies', 'cms.caching_tag_header'], requestId);
    const proxies = values['cms.caching_purge_proxies'];
    const tagHeader = values['cms.caching_tag_header'];
    return {
      proxies: Array.isArray(proxies)
        ? proxies.filter((p): p is string => typeof p === 'string' && /^https?:\/\//.test(p))
        : [],
      tagHeader: typeof tagHeader === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(tagHeader) ? tagHeader : 'Cache-Tag',
    };
  };
}
