/**
 * The plain HTTP hop that carries file bytes (`@@download`, `@@images` and their scales) from the content service
 * to the gateway as a stream, with ranges and validators, instead of whole inside a gRPC message. The gateway
 * authenticates and parses the request as for any endpoint, then passes what the gRPC hop would carry in
 * `HttpRequest` (context path, endpoint, sub-path, principal, public URL, request id) in one header; the content
 * service checks the permissions itself. It trusts that header only with the gateway's proof beside it, as its gRPC
 * server trusts `HttpRequest.principal` only in a signed call: an HMAC under the suite's `SERVICE_AUTH_KEY` over
 * the method, the target, that header, the request id and the time (`signHttpProof`, grpc/service-auth.ts), checked
 * before anything else, so a process that reaches the port (internal, and closed to all but the gateway by the
 * chart's NetworkPolicy) cannot claim to be the gateway. The gateway always replaces whatever a client sent under
 * these names. The proof does not cover an upload's body, and can be replayed within its window, as gRPC's.
 */
import { z } from 'zod';
import type { Principal__Output } from '../generated/cms/common/v1/Principal';

/** The request header that carries the forwarded request. */
export const FILE_HOP_HEADER = 'x-cms-file-request';

/** The request header that carries the forwarded request's id, which the proof covers (logged on a refusal). */
export const FILE_HOP_REQUEST_ID_HEADER = 'x-request-id';

/** The path the content service serves the hop on. */
export const FILE_HOP_PATH = '/files';

// Which endpoints go over the hop, and with which methods, is declared with each (`fileHop`, endpoint.ts).

export interface FileHopRequest {
  context_path: string[];
  endpoint: string;
  sub_path: string[];
  principal: Principal__Output | null;
  public_url: string;
  request_id: string;
}

// As long as the gateway lets a path be (16 KB of request line): a path that long is then not found, as over gRPC.
const segment = z.string().max(16 * 1024);
const hopSchema = z.object({
  context_path: z.array(segment).max(8 * 1024),
  endpoint: z.string().max(100),
  sub_path: z.array(segment).max(20),
  principal: z
    .object({
      id: z.string().max(200),
      roles: z.array(z.string().max(200)).max(100),
      groups: z.array(z.string().max(200)).max(1000),
      fullname: z.string().max(1000),
    })
    .nullable(),
  public_url: z.string().max(2000),
  request_id: z.string().max(200),
});

/**
 * The longest forwarded request header: a context path as long as the gateway accepts (its 16 KB of request line
 * and headers), in base64 and JSON. The content's file server reads headers up to this size.
 */
export const MAX_FILE_HOP_HEADER_BYTES = 64 * 1024;

export function encodeFileHopRequest(request: FileHopRequest): string {
  return Buffer.from(JSON.stringify(request), 'utf8').toString('base64url');
}

/** The forwarded request, or null when the header is absent or malformed. */
export function decodeFileHopRequest(header: string | undefined): FileHopRequest | null {
  if (!header || header.length > MAX_FILE_HOP_HEADER_BYTES) return null;
  try {
    const parsed = hopSchema.safeParse(JSON.parse(Buffer.from(header, 'base64url').toString('utf8')));
    return parsed.success ? (parsed.data as FileHopRequest) : null;
  } catch {
    return null;
  }
}
