/** `@tiles` (deprecated): kept so old clients get the empty answers the specification describes. */
import { z } from 'zod';
import { endpoint, operation } from './declarations';

export const tiles = endpoint({
  name: 'tiles',
  service: 'config',
  context: 'site-root',
  operations: {
    GET: operation({
      summary: 'No tiles (deprecated): an empty list, or an empty schema for any tile id',
      paths: ['', ':id'],
      permission: { public: 'no data to protect' },
      params: z.object({ id: z.string().min(1).max(200).optional() }),
      handle: async (call) => {
        if (call.params.id === undefined) return { status: 200, body: [] };
        return {
          status: 200,
          headers: { 'Content-Type': 'application/json+schema' },
          body: { properties: {}, required: [], title: '', type: 'object' },
        };
      },
    }),
  },
});
