/**
 * `GET @database` (the original's, site root, for administrators): what the content store holds. The original
 * reports its ZODB; here the fields that have a counterpart carry it, the others say there is none:
 * - `db_name`: the store's name (the embedded engine's folder, PostgreSQL's schema, MongoDB's database);
 * - `db_size`: bytes on disk of the documents and their indexes (file and image bytes, kept in the blob store
 *   beside, are not counted); null when the engine does not tell;
 * - `database_size`: the number of stored documents (ZODB counts its objects), over every collection;
 * - `cache_length`, `cache_length_bytes`, `cache_size`: 0, and `cache_detail_length`: []: there is no object cache
 *   per connection; every read goes to the store (the embedded engine keeps its collections in memory whole,
 *   which is its storage, not a cache);
 * and, beyond the original: `engine` and `collections` (per collection: documents, declared indexes, bytes).
 */
import { AppError } from '@cms/shared';
import { using } from './declarations';

const { endpoint, operation } = using('storeStats');

export const database = endpoint({
  name: 'database',
  service: 'content',
  context: 'site-root',
  operations: {
    GET: operation({
      summary: 'Statistics of the content store: its engine, size, and documents and indexes per collection',
      // The original's `plone.app.controlpanel.Overview`: the site's administrators.
      permission: 'cms.ManagePortal',
      handle: async (call, { storeStats }) => {
        const stats = await storeStats();
        if (!stats) throw new AppError('InternalServerError', 'This store engine reports no statistics');
        return {
          status: 200,
          body: {
            '@id': `${call.publicUrl}/@database`,
            cache_detail_length: [],
            cache_length: 0,
            cache_length_bytes: 0,
            cache_size: 0,
            database_size: stats.collections.reduce((sum, c) => sum + c.documents, 0),
            db_name: stats.name,
            db_size: stats.sizeBytes,
            engine: stats.engine,
            collections: stats.collections.map((c) => ({
              name: c.name,
              documents: c.documents,
              indexes: c.indexes,
              size_bytes: c.sizeBytes,
            })),
          },
        };
      },
    }),
  },
});
