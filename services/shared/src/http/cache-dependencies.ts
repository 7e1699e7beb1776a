/**
 * What a service tells the gateway's cache about an answer beyond its context path (gateway/src/http-cache.ts):
 * response headers between the two, which the gateway drops before the answer leaves.
 */

/** `1` when the answer shows its context's neighbours in the folder (`next_item`/`previous_item`). */
export const NEIGHBOURS_HEADER = 'x-cms-neighbours';
