import { pollUntil } from '../support/poll';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * `GET /metrics` on the gateway in the embedded mode (issue 17, item 6): Prometheus text with the gateway's
 * requests by endpoint, method and status, and, since every service runs in this process, their gRPC, store,
 * outbox and event series too. No label carries a path or an id.
 */

/** The samples of one metric: each its labels and value. */
function samples(text: string, name: string): { labels: Record<string, string>; value: number }[] {
  const found = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
    found.push({ labels, value: Number(match[3]) });
  }
  return found;
}

describe('metrics', () => {
  let t: TestSuite;
  const scrape = async () => {
    const response = await t.request('GET', '/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  beforeAll(async () => {
    t = await startTestSuite();
    await t.request('POST', '/', { body: { '@type': 'Document', id: 'metered', title: 'Metered' } });
    await t.request('GET', '/metered');
    await t.request('GET', '/metered/@workflow');
    await t.request('GET', '/no-such-object/@lock/with/a/user-chosen-tail');
    await t.request('GET', '/@no-such-endpoint');
  });
  afterAll(async () => {
    await t.stop();
  });

  it("counts and times the gateway's requests by endpoint name, method and status", async () => {
    const text = await scrape();
    const requests = samples(text, 'cms_http_requests_total');
    expect(requests).toEqual(
      expect.arrayContaining([
        { labels: { endpoint: 'context', method: 'POST', status: '201' }, value: 1 },
        { labels: { endpoint: 'context', method: 'GET', status: '200' }, value: 1 },
        { labels: { endpoint: '@workflow', method: 'GET', status: '200' }, value: 1 },
        { labels: { endpoint: '@lock', method: 'GET', status: '404' }, value: 1 },
        { labels: { endpoint: 'none', method: 'GET', status: '404' }, value: 1 },
      ]),
    );
    const buckets = samples(text, 'cms_http_request_duration_seconds_bucket');
    expect(buckets.some((s) => s.labels.endpoint === '@workflow' && s.labels.le === '+Inf' && s.value === 1)).toBe(
      true,
    );
    // Only endpoint names and the gateway's own paths: nothing the client chose.
    for (const { labels } of requests) {
      expect(labels.endpoint).toMatch(/^(@[\w-]+|context|none|healthz|readyz|metrics|openapi)$/);
    }
    expect(text).not.toContain('metered');
    expect(text).not.toContain('user-chosen-tail');
    expect(text).not.toContain('no-such-endpoint');
  });

  it("shows every service's gRPC, store, event and process series", async () => {
    const text = await pollUntil(
      async () => {
        const scraped = await scrape();
        return samples(scraped, 'cms_events_consumed_total').length > 0 ? scraped : undefined;
      },
      10_000,
      { description: 'an event consumed' },
    );
    const server = samples(text, 'cms_grpc_server_handling_seconds_count');
    expect(server).toContainEqual({
      labels: { grpc_service: 'cms.content.v1.ContentService', grpc_method: 'Handle', grpc_code: 'OK' },
      value: expect.any(Number),
    });
    const client = samples(text, 'cms_grpc_client_handling_seconds_count');
    expect(client.some((s) => s.labels.grpc_service === 'cms.content.v1.ContentService')).toBe(true);

    const store = samples(text, 'cms_store_operation_duration_seconds_count');
    expect(store.some((s) => s.labels.store === 'content' && s.labels.outcome === 'ok')).toBe(true);
    expect(store.some((s) => s.labels.operation === 'insertOne')).toBe(true);

    expect(samples(text, 'cms_events_published_total')).toContainEqual({
      labels: { type: 'content.added' },
      value: expect.any(Number),
    });
    expect(samples(text, 'cms_events_consumed_total').some((s) => s.labels.group === 'search')).toBe(true);
    expect(samples(text, 'cms_outbox_relay_lag_seconds_count').length).toBeGreaterThan(0);
    expect(text).toContain('# TYPE cms_outbox_pending_documents gauge');
    expect(text).toContain('# TYPE cms_events_retried_total counter');
    expect(text).toContain('# TYPE cms_events_dead_lettered_total counter');
    expect(samples(text, 'process_cpu_user_seconds_total').length).toBe(1);
    expect(samples(text, 'nodejs_eventloop_lag_seconds').length).toBe(1);
  });

  // Last: its writes would show in the counts the tests above expect.
  it('keeps its own paths from content: no object takes the name of a path the gateway answers at the top', async () => {
    const post = (parent: string, body: Record<string, unknown>) => t.request('POST', parent, { body });
    for (const id of ['metrics', 'healthz', 'readyz', 'openapi.json', 'Metrics']) {
      const refused = await post('/', { '@type': 'Document', id, title: 'Shadowed' });
      expect([id, refused.status]).toEqual([id, 400]);
    }
    // A title that suggests such a name gets the next free one; below the top the name is free.
    const suggested = await post('/', { '@type': 'Document', title: 'Metrics' });
    expect(((await suggested.json()) as { id: string }).id).toBe('metrics-1');
    expect((await post('/', { '@type': 'Folder', id: 'reports', title: 'Reports' })).status).toBe(201);
    expect((await post('/reports', { '@type': 'Document', id: 'metrics', title: 'Metrics' })).status).toBe(201);
    // Renamed or pasted to the top, it keeps clear of the gateway's paths too.
    expect((await t.request('PATCH', '/metrics-1', { body: { id: 'healthz' } })).status).toBe(400);
    const copied = await t.request('POST', '/@copy', { body: { source: '/reports/metrics' } });
    expect(((await copied.json()) as { target: string }[])[0].target).toMatch(/\/copy_of_metrics$/);
    expect((await t.request('GET', '/metrics')).headers.get('content-type')).toMatch(/^text\/plain/);
  });
});
