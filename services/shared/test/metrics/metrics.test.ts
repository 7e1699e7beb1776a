import pino from 'pino';
import { openEmbeddedStore } from '../../src/adapters/store/embedded/embedded-store';
import { timedStore } from '../../src/adapters/store/timed';
import { metricsPortSettings, startMetricsPort } from '../../src/runtime/metrics-port';
import { eventTypeLabel, grpcMethodLabels, methodLabel, metricsRegistry, statusLabel } from '../../src/metrics/metrics';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Metrics' labels stay within sets the code fixes, whatever a client sends (issue 17, item 6). */

const silent = pino({ level: 'silent' });

describe('metric labels', () => {
  it('take HTTP methods and statuses from fixed sets', () => {
    expect(methodLabel('PATCH')).toBe('PATCH');
    expect(methodLabel('PROPFIND')).toBe('OTHER');
    expect(methodLabel('x'.repeat(1000))).toBe('OTHER');
    expect(statusLabel(404)).toBe('404');
    expect(statusLabel(1000)).toBe('other');
  });

  it('name only known event types', () => {
    expect(eventTypeLabel('content.added')).toBe('content.added');
    expect(eventTypeLabel('content.added.by-some-user-42')).toBe('unknown');
  });

  it('read the service and method of a gRPC path, and nothing else', () => {
    expect(grpcMethodLabels('/cms.content.v1.ContentService/GetByPath')).toEqual({
      grpc_service: 'cms.content.v1.ContentService',
      grpc_method: 'GetByPath',
    });
    expect(grpcMethodLabels('/some/user/path/with/segments')).toEqual({
      grpc_service: 'unknown',
      grpc_method: 'unknown',
    });
  });
});

describe('the timed store', () => {
  it('records each operation by store, collection, operation and outcome, never by document', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-metrics-'));
    const store = timedStore(await openEmbeddedStore(dir), 'probe');
    try {
      const items = store.collection('items');
      await items.insertOne({ _id: 'secret-id-1', title: 'x' });
      await expect(items.insertOne({ _id: 'secret-id-1', title: 'y' })).rejects.toThrow();
      expect(await items.findOne({ _id: 'secret-id-1' })).toMatchObject({ title: 'x' });
      const text = await metricsRegistry.getSingleMetricAsString('cms_store_operation_duration_seconds');
      expect(text).toContain(
        'cms_store_operation_duration_seconds_count{store="probe",collection="items",operation="insertOne",outcome="ok"} 1',
      );
      expect(text).toContain(
        'cms_store_operation_duration_seconds_count{store="probe",collection="items",operation="insertOne",outcome="error"} 1',
      );
      expect(text).toContain('operation="findOne",outcome="ok"} 1');
      expect(text).not.toContain('secret-id-1');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a service's metrics port", () => {
  it('defaults to 9464, may be turned off, and refuses anything else', () => {
    expect(metricsPortSettings({})).toEqual({ port: 9464, host: '0.0.0.0' });
    expect(metricsPortSettings({ METRICS_PORT: 'off' }).port).toBe('off');
    expect(metricsPortSettings({ METRICS_PORT: '9100', METRICS_HOST: '127.0.0.1' })).toEqual({
      port: 9100,
      host: '127.0.0.1',
    });
    expect(() => metricsPortSettings({ METRICS_PORT: 'ninety' })).toThrow(/METRICS_PORT/);
  });

  it('serves GET /metrics as Prometheus text and nothing else', async () => {
    const running = await startMetricsPort({ port: 0, host: '127.0.0.1' }, silent);
    try {
      const response = await fetch(`http://127.0.0.1:${running.port}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).toContain('process_cpu_user_seconds_total');
      expect((await fetch(`http://127.0.0.1:${running.port}/other`)).status).toBe(404);
    } finally {
      await running.stop();
    }
  });

  it('runs without the port when it is taken', async () => {
    const first = await startMetricsPort({ port: 0, host: '127.0.0.1' }, silent);
    try {
      const second = await startMetricsPort({ port: first.port!, host: '127.0.0.1' }, silent);
      expect(second.port).toBeUndefined();
      await second.stop();
    } finally {
      await first.stop();
    }
  });
});
