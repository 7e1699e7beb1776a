/** `@portrait/<user_id>`: a user's picture (the caller's own without an id); anyone may see portraits. */
import { endpoint, operation } from './declarations';
import { callerOf } from './calls';

export const portrait = endpoint({
  name: 'portrait',
  service: 'identity',
  context: 'site-root',
  operations: {
    GET: operation({
      summary: 'The portrait image of a user',
      paths: ['', ':id'],
      permission: { public: 'portraits are public, as in the reference' },
      handle: async (call, { users }) => {
        const found = await users.portrait(callerOf(call), call.params.id);
        return {
          status: 200,
          headers: { 'Content-Type': found.contentType, 'X-Content-Type-Options': 'nosniff' },
          raw: found.bytes,
        };
      },
    }),
  },
});
