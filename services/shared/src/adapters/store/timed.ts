import { secondsSince, storeOperationDuration } from '../../metrics/metrics';
import { inSpan } from '../../tracing/spans';
import type { Collection, Document, DocumentStore } from '../../ports/store';

/** Where a timed store keeps the adapter it wraps. */
const ADAPTER = Symbol('store adapter');

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
  const timed: DocumentStore & { [ADAPTER]: DocumentStore } = {
    [ADAPTER]: store,
    kind: store.kind,
    collection<T extends Document = Document>(name: string): Collection<T> {
      return timedCollection(store.collection(name), storeName) as unknown as Collection<T>;
    },
    ping: () => store.ping(),
    close: () => store.close(),
  };
  // Passed on only when the adapter has it, so that `store.stats` still tells whether statistics exist.
  if (store.stats) timed.stats = () => store.stats!();
  return timed;
}

/**
 * The adapter behind a store, timed or not: for code that uses an engine's own features beside the port (e.g. the
 * search catalog on PostgreSQL's full-text search), given the store a service was opened with.
 */
export function adapterOf(store: DocumentStore): DocumentStore {
  return (store as Partial<Record<typeof ADAPTER, DocumentStore>>)[ADAPTER] ?? store;
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
