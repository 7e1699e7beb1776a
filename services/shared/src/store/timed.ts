import { secondsSince, storeOperationDuration } from '../metrics/metrics';
import { inSpan } from '../tracing/spans';
import type { Collection, Document, DocumentStore } from './port';

/** The port's operations, each timed under its own name. */
const OPERATIONS = [
  'find',
  'findOne',
  'countDocuments',
  'insertOne',
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'deleteOne',
  'deleteMany',
  'createIndex',
] as const satisfies readonly (keyof Collection)[];

/**
 * The store with the latency of every collection operation recorded (cms_store_operation_duration_seconds),
 * labelled by `storeName` (the service), the collection and the operation, and a span per operation when tracing
 * is on (the embedded engine has no instrumentation of its own); the adapters stay unaware of it.
 */
export function timedStore(store: DocumentStore, storeName: string): DocumentStore {
  const timed: DocumentStore = {
    kind: store.kind,
    collection<T extends Document = Document>(name: string): Collection<T> {
      return timedCollection(store.collection(name), storeName) as unknown as Collection<T>;
    },
    ping: () => store.ping(),
    close: () => store.close(),
  };
  ADAPTERS.set(timed, store);
  return timed;
}

/** The adapter under each timed store. */
const ADAPTERS = new WeakMap<DocumentStore, DocumentStore>();

/**
 * The adapter itself under a store that may be timed: for what a service does with its engine beyond the port
 * (search's full-text queries on PostgreSQL), which the port's timing does not see.
 */
export function storeAdapterOf(store: DocumentStore): DocumentStore {
  return ADAPTERS.get(store) ?? store;
}

function timedCollection(inner: Collection, storeName: string): Collection {
  const timed: Record<string, unknown> = { name: inner.name };
  for (const operation of OPERATIONS) {
    const method = inner[operation] as (...args: unknown[]) => Promise<unknown>;
    timed[operation] = async (...args: unknown[]) => {
      const started = process.hrtime.bigint();
      let outcome = 'error';
      try {
        const result = await inSpan(
          `store ${operation}`,
          'internal',
          { 'db.collection.name': inner.name, 'db.operation.name': operation, 'cms.store': storeName },
          () => method.apply(inner, args),
        );
        outcome = 'ok';
        return result;
      } finally {
        storeOperationDuration.observe(
          { store: storeName, collection: inner.name, operation, outcome },
          secondsSince(started),
        );
      }
    };
  }
  return timed as unknown as Collection;
}
