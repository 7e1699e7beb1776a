import type { IncomingMessage } from 'node:http';
import { gatewayConfigSchema } from '../src/config';
import { publicUrlFor } from '../src/public-origin';

const request = (headers: Record<string, string>, encrypted = false) =>
  ({ headers, socket: { encrypted } }) as unknown as IncomingMessage;

describe('the public URL of a request', () => {
  const config = { publicUrl: 'http://cms.internal:8080', PUBLIC_HOSTS: ['volto.local:3000', 'www.example.org'] };

  it('is PUBLIC_URL unless the request names an allowed host', () => {
    expect(publicUrlFor(request({ host: 'volto.local:3000' }), { ...config, PUBLIC_HOSTS: [], TRUST_PROXY: 0 })).toBe(
      'http://cms.internal:8080',
    );
    expect(publicUrlFor(request({ host: 'other:1' }), { ...config, TRUST_PROXY: 0 })).toBe('http://cms.internal:8080');
    expect(publicUrlFor(request({ host: 'VOLTO.local:3000' }), { ...config, TRUST_PROXY: 0 })).toBe(
      'http://volto.local:3000',
    );
    expect(publicUrlFor(request({ host: 'www.example.org' }, true), { ...config, TRUST_PROXY: 0 })).toBe(
      'https://www.example.org',
    );
  });

  it('believes X-Forwarded-Host and -Proto only behind trusted proxies, and keeps PUBLIC_URL’s path', () => {
    const forwarded = {
      host: 'cms.internal:8080',
      'x-forwarded-host': 'www.example.org',
      'x-forwarded-proto': 'https',
    };
    expect(publicUrlFor(request(forwarded), { ...config, TRUST_PROXY: 0 })).toBe('http://cms.internal:8080');
    expect(publicUrlFor(request(forwarded), { ...config, TRUST_PROXY: 1 })).toBe('https://www.example.org');
    expect(publicUrlFor(request({ ...forwarded, 'x-forwarded-proto': 'gopher' }), { ...config, TRUST_PROXY: 1 })).toBe(
      'http://www.example.org',
    );
    expect(
      publicUrlFor(request(forwarded), { ...config, publicUrl: 'http://cms.internal:8080/site', TRUST_PROXY: 1 }),
    ).toBe('https://www.example.org/site');
  });

  it('settings: hosts and origins are checked at start', () => {
    const parsed = gatewayConfigSchema.parse({
      PUBLIC_HOSTS: 'Volto.local:3000, www.example.org',
      CORS_ALLOW_ORIGINS: 'http://localhost:3000, https://www.example.org/',
    });
    expect(parsed.PUBLIC_HOSTS).toEqual(['volto.local:3000', 'www.example.org']);
    expect(parsed.CORS_ALLOW_ORIGINS).toEqual(['http://localhost:3000', 'https://www.example.org']);
    expect(gatewayConfigSchema.safeParse({ PUBLIC_HOSTS: 'http://x/' }).success).toBe(false);
    expect(gatewayConfigSchema.safeParse({ CORS_ALLOW_ORIGINS: 'https://x.org/path' }).success).toBe(false);
    expect(gatewayConfigSchema.parse({}).CORS_ALLOW_ORIGINS).toEqual([]);
  });
});
