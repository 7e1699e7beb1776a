import { join } from 'node:path';
import { openBlobStoreAt } from '../blobs/open';
import type { BlobStore } from '../blobs/port';
import { createAmqpBus } from '../events/amqp';
import { createInProcessBus } from '../events/in-process';
import type { EventBus } from '../events/port';
import type { ConsumerGroup } from '../events/topology';
import type { Logger } from '../logging/logger';
import { openStore } from '../store/open';
import type { DocumentStore } from '../store/port';
import type { ServiceName } from '../http/routes';

/** Each service keeps its own data: its own database on MongoDB, its own folder when embedded. */
export function openServiceStore(
  service: ServiceName,
  config: { MONGO_URL?: string; DATA_DIR: string },
): Promise<DocumentStore> {
  return openStore({ mongoUrl: config.MONGO_URL, dataDir: join(config.DATA_DIR, service), dbName: `cms_${service}` });
}

/** A service's blobs: GridFS in its own database on MongoDB, files under `<DATA_DIR>/<service>/blobs` when embedded. */
export function openBlobStore(
  service: ServiceName,
  config: { MONGO_URL?: string; DATA_DIR: string },
): Promise<BlobStore> {
  return openBlobStoreAt({
    mongoUrl: config.MONGO_URL,
    dir: join(config.DATA_DIR, service, 'blobs'),
    dbName: `cms_${service}`,
  });
}

export function openBus(config: { AMQP_URL?: string }, topology: ConsumerGroup[], logger: Logger): Promise<EventBus> {
  return config.AMQP_URL
    ? createAmqpBus(config.AMQP_URL, { topology, logger })
    : Promise.resolve(createInProcessBus({ topology, logger }));
}
