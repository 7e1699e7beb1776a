import type { IncomingMessage } from 'node:http';

/**
 * The public URL a response's `@id`s and links are built on. Volto in its seamless mode proxies `/++api++` to the
 * gateway and expects links under its own host; an ingress may serve several hosts. A request naming one of the
 * allowed PUBLIC_HOSTS gets that origin: in `Host`, or behind trusted proxies (TRUST_PROXY > 0) in
 * `X-Forwarded-Host` with `X-Forwarded-Proto`. Anything else gets PUBLIC_URL, so a host nobody allowed never
 * appears in a response.
 */
export function publicUrlFor(
  req: IncomingMessage,
  config: { publicUrl: string; PUBLIC_HOSTS: string[]; TRUST_PROXY: number },
): string {
  if (config.PUBLIC_HOSTS.length === 0) return config.publicUrl;
  const proxied = config.TRUST_PROXY > 0;
  const host = (proxied && lastValue(req.headers['x-forwarded-host'])) || req.headers.host || '';
  if (!config.PUBLIC_HOSTS.includes(host.toLowerCase())) return config.publicUrl;
  const forwardedProto = proxied ? lastValue(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const proto =
    forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : encrypted(req) ? 'https' : 'http';
  return `${proto}://${host.toLowerCase()}${new URL(config.publicUrl).pathname.replace(/\/+$/, '')}`;
}

/** The value the nearest proxy set: the last of a comma-separated list (each proxy appends its own). */
function lastValue(header: string | string[] | undefined): string | undefined {
  const joined = Array.isArray(header) ? header.join(',') : header;
  const value = joined?.split(',').pop()?.trim();
  return value || undefined;
}

function encrypted(req: IncomingMessage): boolean {
  return (req.socket as { encrypted?: boolean }).encrypted === true;
}
