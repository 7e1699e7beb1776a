/**
 * Replicas of a service on embedded stores notice each other. Two processes of one service with stores of their
 * own would split its work (each consumes half of the events, each answers from half of the data) while both
 * report ready. So a service process on an embedded store says it is there on the bus every few seconds (a
 * heartbeat on the broadcast exchange, naming its service, a random process id and its store: host and folder),
 * and one that hears another process of its own service stops its consumers, starts no new ones, and reports not
 * ready (its bus's `ready()` rejects, which every service's readiness asks), with an error saying that replicas
 * need a shared store engine. Both hear each other, so both step out: which one holds the right data is for an
 * operator to say. It lasts until the process is restarted.
 *
 * A process on a shared engine (PostgreSQL, MongoDB) neither sends nor checks heartbeats: replicas are what it is for.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { BroadcastSubscription, EventBus, Subscription } from '../ports/bus';
import type { ServiceName } from '../http/endpoint';
import type { Logger } from '../logging/logger';
import type { DocumentStore } from '../ports/store';

export const HEARTBEAT_TOPIC = 'replica.heartbeat';
const HEARTBEAT_INTERVAL_MS = 2_000;

const heartbeatSchema = z.object({
  service: z.string().max(64),
  process: z.string().max(64),
  store: z.object({ host: z.string().max(255), folder: z.string().max(4096) }),
});
type Heartbeat = z.infer<typeof heartbeatSchema>;

/** Whether several processes of a service may share `store`: the one test of it, so a new engine changes only this. */
export function storeServesReplicas(store: DocumentStore): boolean {
  // A SQLite file is local to one machine: replicas elsewhere would each open a file of their own.
  return store.kind !== 'embedded' && store.kind !== 'sqlite';
}

/** The error a replica on an embedded store reports, as its log says it and its readiness fails with it. */
export class EmbeddedReplicaError extends Error {
  override name = 'EmbeddedReplicaError';

  constructor(service: string, other: Heartbeat) {
    super(
      `another ${service} process (${other.process} on ${other.store.host}, store ${other.store.folder}) is on the ` +
        `bus: replicas of ${service} need a shared store engine (STORE_URL=postgres://… or mongodb://…), not ` +
        'embedded stores of their own; this process has stopped consuming and reports not ready',
    );
  }
}

/**
 * What a service subscribing after a replica was found gets: no consumer (so the process starts, and stays up
 * unready, as one whose consumers were stopped does), never drained.
 */
const notConsuming: Subscription = {
  stop: async () => {},
  waitUntilDrained: async () => false,
};

export interface ReplicaGuard {
  /** The bus to give the service: its subscriptions stop, and its readiness fails, once a replica is found. */
  readonly bus: EventBus;
  /** Stops the heartbeat (before the bus is closed). */
  stop(): Promise<void>;
}

/**
 * Starts the heartbeat of `service` (whose embedded store is in `folder`) on `bus`, and returns the bus wrapped so
 * that another process of the service heard on it stops this one's consumers and readiness.
 */
export async function guardEmbeddedReplicas(options: {
  service: ServiceName;
  folder: string;
  bus: EventBus;
  logger: Logger;
  intervalMs?: number;
}): Promise<ReplicaGuard> {
  const { service, bus, logger } = options;
  const self: Heartbeat = {
    service,
    process: randomUUID(),
    store: { host: hostname(), folder: resolve(options.folder) },
  };
  const subscriptions = new Set<Subscription>();
  let conflict: EmbeddedReplicaError | undefined;

  const onHeartbeat = (body: Buffer) => {
    let parsed: z.SafeParseReturnType<unknown, Heartbeat>;
    try {
      parsed = heartbeatSchema.safeParse(JSON.parse(body.toString('utf8')));
    } catch {
      return;
    }
    if (!parsed.success) return;
    const other = parsed.data;
    // Its own store is this process's earlier life (restarted): the folder lock lets only one run on it.
    const sameStore = other.store.host === self.store.host && other.store.folder === self.store.folder;
    if (other.service !== service || other.process === self.process || sameStore || conflict) return;
    conflict = new EmbeddedReplicaError(service, other);
    logger.error({ err: conflict, other }, conflict.message);
    for (const subscription of subscriptions) {
      subscription.stop().catch((err: unknown) => logger.error({ err }, 'could not stop a consumer'));
    }
    subscriptions.clear();
  };
  const heartbeats: BroadcastSubscription = await bus.subscribeBroadcast(HEARTBEAT_TOPIC, ({ body, origin }) => {
    if (origin !== self.process) onHeartbeat(body);
  });

  const body = Buffer.from(JSON.stringify(self));
  const beat = () =>
    bus.broadcast(HEARTBEAT_TOPIC, body, self.process).catch((err: unknown) => {
      // The broker is away: the bus reconnects, and the next beat goes out then.
      logger.debug({ err }, 'heartbeat not sent');
    });
  void beat();
  const timer = setInterval(() => void beat(), options.intervalMs ?? HEARTBEAT_INTERVAL_MS);
  timer.unref();

  const guarded: EventBus = {
    get kind() {
      return bus.kind;
    },
    get connected() {
      return bus.connected;
    },
    broadcast: (topic, message, origin) => bus.broadcast(topic, message, origin),
    subscribeBroadcast: (topic, handler) => bus.subscribeBroadcast(topic, handler),
    publish: (event) => bus.publish(event),
    async subscribe(subscribeOptions, handler) {
      if (conflict) return notConsuming;
      const subscription = await bus.subscribe(subscribeOptions, handler);
      if (conflict) {
        await subscription.stop();
        return notConsuming;
      }
      subscriptions.add(subscription);
      return subscription;
    },
    ping: () => bus.ping(),
    async ready() {
      if (conflict) throw conflict;
      await bus.ready();
    },
    deadLetterCounts: () => bus.deadLetterCounts(),
    close: () => bus.close(),
  };

  return {
    bus: guarded,
    async stop() {
      clearInterval(timer);
      await heartbeats.stop();
    },
  };
}
