import type { IncomingMessage, ServerResponse } from 'node:http';

/** The most of a refused request's body that is read and dropped rather than cutting the connection. */
export const DROPPED_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * A request of the file hop answered before its body was read (refused at once): the rest of the body is read
 * and dropped, so that the gateway, still sending it, reads the answer. Cutting the connection instead would reset
 * it under the gateway, which would then lose the answer and say content was unreachable (503). Past
 * DROPPED_BODY_LIMIT_BYTES (declared or received) the connection closes with the answer: the gateway's pool must
 * not hand a connection still carrying that body to another request.
 */
export function dropUnreadBody(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > DROPPED_BODY_LIMIT_BYTES) {
    if (!res.headersSent) res.setHeader('Connection', 'close');
    return;
  }
  let received = 0;
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > DROPPED_BODY_LIMIT_BYTES) req.destroy();
  });
  req.resume();
}
