import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { Logger } from '../logging/logger';
import { collectProcessMetrics, metricsText } from '../metrics/metrics';

/** Prometheus' registered default port for Node exporters; the chart and compose files expect it. */
export const DEFAULT_METRICS_PORT = 9464;

/** The variables of a service's metrics port (exported for the generated configuration table, scripts/config-docs.mjs). */
export const metricsEnvSchema = z.object({
  /** `off` turns the port off (e.g. several replicas on one host without their own ports). */
  METRICS_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65_535)]).default(DEFAULT_METRICS_PORT),
  METRICS_HOST: z.string().min(1).default('0.0.0.0'),
});

export interface MetricsPortSettings {
  port: number | 'off';
  host: string;
}

export function metricsPortSettings(env: NodeJS.ProcessEnv = process.env): MetricsPortSettings {
  const parsed = metricsEnvSchema.safeParse({
    METRICS_PORT: env.METRICS_PORT || undefined,
    METRICS_HOST: env.METRICS_HOST,
  });
  if (!parsed.success) throw new Error('METRICS_PORT must be a port number or "off"');
  return { port: parsed.data.METRICS_PORT, host: parsed.data.METRICS_HOST };
}

export interface RunningMetricsPort {
  /** The bound port; undefined when off or when it could not be bound. */
  port?: number;
  stop(): Promise<void>;
}

/**
 * A service's own small HTTP port answering `GET /metrics` (Prometheus text) for scrapers; every other path is
 * 404. A port that cannot be bound is logged and skipped: metrics are worth less than the service answering.
 */
export async function startMetricsPort(settings: MetricsPortSettings, logger: Logger): Promise<RunningMetricsPort> {
  if (settings.port === 'off') return { stop: async () => undefined };
  collectProcessMetrics();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ type: 'NotFound', message: 'Only GET /metrics is served on this port' }));
      return;
    }
    metricsText().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'Content-Type': contentType });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'metrics collection failed');
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ type: 'InternalServerError', message: 'metrics collection failed' }));
      },
    );
  });
  const port = settings.port;
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', (error) => {
      logger.error({ err: error, port }, 'metrics port could not be bound; running without it');
      resolve(false);
    });
    server.listen(port, settings.host, () => resolve(true));
  });
  if (!bound) return { stop: async () => undefined };
  const actual = (server.address() as AddressInfo).port;
  logger.info({ port: actual }, 'metrics listening');
  return {
    port: actual,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
