import type * as grpc from '@grpc/grpc-js';
import type { z } from 'zod';
import { AppError, badRequest, methodNotAllowed, notFound, type FieldError } from '../errors/app-error';
import type { HttpRequest__Output } from '../generated/cms/common/v1/HttpRequest';
import type { HttpResponse } from '../generated/cms/common/v1/HttpResponse';
import type { Principal__Output } from '../generated/cms/common/v1/Principal';
import { unary } from '../grpc/server';
import type { Logger } from '../logging/logger';
import { QueryParams } from './query';
import { endpointsOf, ROUTES, type HttpMethod, type ServiceName } from './routes';

/** What an endpoint handler sees of one HTTP request. */
export class RequestContext {
  readonly query: QueryParams;

  constructor(
    readonly request: HttpRequest__Output,
    readonly requestId: string,
    private readonly logger: Logger,
  ) {
    this.query = new QueryParams(request.query);
  }

  get log(): Logger {
    return this.logger.child({ requestId: this.requestId });
  }

  get method(): HttpMethod {
    return this.request.method as HttpMethod;
  }

  get principal(): Principal__Output | null {
    return this.request.principal;
  }

  get publicUrl(): string {
    return this.request.public_url;
  }

  /** Site-relative path of the context: `/` for the site root, `/folder/doc` otherwise. */
  get contextPath(): string {
    return '/' + this.request.context_path.join('/');
  }

  header(name: string): string | undefined {
    return this.request.headers[name];
  }

  /** The JSON body; an empty body is `{}` (addendum §7). The gateway has already checked it parses. */
  json(): unknown {
    return this.request.body.length === 0 ? {} : JSON.parse(this.request.body.toString('utf8'));
  }

  /** The JSON body validated against a schema; a mismatch is 400 with one entry per field. */
  body<S extends z.ZodTypeAny>(schema: S): z.infer<S> {
    const result = schema.safeParse(this.json());
    if (!result.success) throw validationError(result.error);
    return result.data;
  }
}

export function validationError(error: z.ZodError): AppError {
  const errors: FieldError[] = error.issues.map((issue) => ({
    field: issue.path.join('.') || '(body)',
    message: issue.message,
  }));
  return badRequest(`Invalid request: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, errors);
}

export interface HttpResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Body bytes sent as they are (e.g. an image), instead of `body` as JSON; set `Content-Type` with it. */
  raw?: Buffer;
}

export type EndpointHandler = (ctx: RequestContext) => Promise<HttpResult>;
export type EndpointTable = Record<string, Partial<Record<HttpMethod, EndpointHandler>>>;

const EMPTY = Buffer.alloc(0);

/**
 * The `Handle` RPC of a service: dispatches a parsed HTTP request to the
 * service's endpoint table. The table must implement exactly the service's
 * rows of the routing table, which is checked here, at start.
 */
export function envelopeHandler(
  service: ServiceName,
  table: EndpointTable,
  log: Logger,
): grpc.handleUnaryCall<HttpRequest__Output, HttpResponse> {
  assertMatchesRoutes(service, table);
  return unary(log, async (request: HttpRequest__Output, call) => {
    const requestId = request.request_id || call.requestId;
    const handlers = table[request.endpoint];
    if (!handlers) throw notFound(`No such endpoint: @${request.endpoint}`);
    const handler = handlers[request.method as HttpMethod];
    if (!handler) throw methodNotAllowed(request.method, ROUTES[request.endpoint].methods);
    const result = await handler(new RequestContext(request, requestId, log));
    return {
      status: result.status,
      headers: result.headers ?? {},
      body: result.raw ?? (result.body === undefined ? EMPTY : Buffer.from(JSON.stringify(result.body))),
    };
  });
}

function assertMatchesRoutes(service: ServiceName, table: EndpointTable): void {
  const expected = endpointsOf(service)
    .flatMap((endpoint) => ROUTES[endpoint].methods.map((m) => `${m} @${endpoint}`))
    .sort();
  const actual = Object.entries(table)
    .flatMap(([endpoint, methods]) => Object.keys(methods).map((m) => `${m} @${endpoint}`))
    .sort();
  if (expected.join() !== actual.join()) {
    throw new Error(
      `${service}: endpoint table does not match the routing table; routes: [${expected.join(', ')}], handlers: [${actual.join(', ')}]`,
    );
  }
}

export { AppError };
