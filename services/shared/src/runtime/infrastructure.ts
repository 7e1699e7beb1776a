import { join } from 'node:path';
import { storeEngineOf } from '../config/load';
import { createAmqpBus } from '../adapters/bus/amqp/amqp-bus';
import { SUITE_CONSUMER_GROUPS } from '../events/consumer-groups';
import { createInProcessBus } from '../adapters/bus/in-process-bus';
import type { EventBus } from '../ports/bus';
import type { ConsumerGroup } from '../events/topology';
import type { Logger } from '../logging/logger';
import { carryEmbeddedToSqlite } from '../adapters/store/carry-over';
import { openStore } from '../adapters/store/open';
import { sqliteFileOf } from '../adapters/store/sqlite';
import type { DocumentStore } from '../ports/store';
import type { ServiceName } from '../http/endpoint';

/** A service's own folder of the embedded store (its blobs included). */
export function serviceDataDir(service: ServiceName, config: { DATA_DIR: string }): string {
  return join(config.DATA_DIR, service);
}

/**
 * Each service keeps its own data: its own database `cms_<service>` on MongoDB, its own schema `cms_<service>` in
 * the database the URL names on PostgreSQL, its own file `cms_<service>.db` in the folder a `sqlite:` URL names, its
 * own folder when embedded.
 */
export async function openServiceStore(
  service: ServiceName,
  config: { STORE_URL?: string; MONGO_URL?: string; DATA_DIR: string },
  logger?: Logger,
): Promise<DocumentStore> {
  const engine = storeEngineOf(config);
  const dataDir = serviceDataDir(service, config);
  const dbName = `cms_${service}`;
  // A store moved from the embedded engine to SQLite starts with what its folder held (adapters/store/carry-over.ts).
  if (engine.engine === 'sqlite') await carryEmbeddedToSqlite(dataDir, sqliteFileOf(engine.url, dbName), logger);
  return openStore({ logger, engine, dataDir, dbName, metricsName: service });
}

/**
 * The bus, with queues declared up front so that what is published before their consumers subscribe is kept: on
 * RabbitMQ every consumer group of the suite (SUITE_CONSUMER_GROUPS: a producer declares its consumers' queues, so
 * a consumer's first start on a new broker misses nothing); in process, the groups of the services this process
 * runs (all of them when embedded). A broker that cannot be reached does not fail it: the bus connects in the
 * background, and `bus.ready()` (what a service's readiness asks) rejects until it has.
 */
export function openBus(
  config: { AMQP_URL?: string },
  consumerGroups: ConsumerGroup[],
  logger: Logger,
): Promise<EventBus> {
  return config.AMQP_URL
    ? createAmqpBus(config.AMQP_URL, { topology: [...SUITE_CONSUMER_GROUPS, ...consumerGroups], logger })
    : Promise.resolve(createInProcessBus({ topology: consumerGroups, logger }));
}
