import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite } from '../support/distributed-suite';
import { freePorts } from '../support/processes';

/**
 * In the distributed mode each service serves its own metrics on METRICS_PORT (issue 17, item 6), and the gateway
 * on its HTTP port: here content's port is scraped after a write went through it.
 */

describeWithBroker('metrics of separate processes', () => {
  let suite: DistributedSuite;
  let metricsPort: number;

  beforeAll(async () => {
    [metricsPort] = await freePorts(1);
    suite = await DistributedSuite.prepare({
      name: 'metrics-port',
      // One port per process on this host: only content's is on.
      env: { METRICS_PORT: 'off' },
      envOf: { content: { METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' } },
    });
    await suite.startAll();
    await suite.untilReady();
  }, 60_000);

  afterAll(async () => {
    await suite?.dispose();
  }, 30_000);

  test("content's METRICS_PORT shows its gRPC, store and process series", () =>
    suite.withLogs(async () => {
      await suite.expectHttp(201, 'POST', '/', { '@type': 'Document', id: 'metered', title: 'Metered' });
      const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toMatch(
        /^cms_grpc_server_handling_seconds_count\{grpc_service="cms\.content\.v1\.ContentService",grpc_method="Handle",grpc_code="OK"\} \d+$/m,
      );
      expect(text).toMatch(/^cms_store_operation_duration_seconds_count\{store="content",collection="\w+"/m);
      expect(text).toMatch(/^cms_events_published_total\{type="content\.added"\} \d+$/m);
      expect(text).toMatch(/^process_resident_memory_bytes /m);
      // Only this process: the gateway's requests are counted by the gateway.
      expect(text).not.toMatch(/^cms_http_requests_total\{/m);

      const gateway = await suite.http('GET', '/metrics');
      expect(gateway.status).toBe(200);
      expect(gateway.text).toMatch(/^cms_http_requests_total\{endpoint="context",method="POST",status="201"\} 1$/m);
      expect(gateway.text).toMatch(
        /^cms_grpc_client_handling_seconds_count\{grpc_service="cms\.content\.v1\.ContentService"/m,
      );
    }));
});
