/**
 * Errors are values with a type from the addendum's table (§4). They are
 * raised in `domain/`, cross gRPC as a status code plus the type in metadata,
 * and are mapped to HTTP once, in the gateway.
 */

export const ERROR_TYPES = {
  BadRequest: { http: 400, grpc: 3 /* INVALID_ARGUMENT */ },
  Unauthorized: { http: 401, grpc: 16 /* UNAUTHENTICATED */ },
  Forbidden: { http: 403, grpc: 7 /* PERMISSION_DENIED */ },
  NotFound: { http: 404, grpc: 5 /* NOT_FOUND */ },
  MethodNotAllowed: { http: 405, grpc: 12 /* UNIMPLEMENTED */ },
  Conflict: { http: 409, grpc: 6 /* ALREADY_EXISTS */ },
  /** A write whose `If-Match` no longer matches (the gateway's check). */
  PreconditionFailed: { http: 412, grpc: 9 /* FAILED_PRECONDITION */ },
  PayloadTooLarge: { http: 413, grpc: 11 /* OUT_OF_RANGE */ },
  /** A request body in a Content-Encoding the gateway does not inflate (the gateway's check). */
  UnsupportedMediaType: { http: 415, grpc: 3 /* INVALID_ARGUMENT */ },
  /** The next two come from the gateway's HTTP parser only, before there is a request to route. */
  RequestTimeout: { http: 408, grpc: 4 /* DEADLINE_EXCEEDED */ },
  RequestHeaderFieldsTooLarge: { http: 431, grpc: 11 /* OUT_OF_RANGE */ },
  TooManyRequests: { http: 429, grpc: 8 /* RESOURCE_EXHAUSTED */ },
  InternalServerError: { http: 500, grpc: 13 /* INTERNAL */ },
  ServiceUnavailable: { http: 503, grpc: 14 /* UNAVAILABLE */ },
  GatewayTimeout: { http: 504, grpc: 4 /* DEADLINE_EXCEEDED */ },
} as const;

export type ErrorType = keyof typeof ERROR_TYPES;

export interface FieldError {
  field: string;
  message: string;
}

/** The JSON error body of addendum §4. */
export interface ErrorBody {
  type: ErrorType;
  message: string;
  errors?: FieldError[];
  /** Echoed on 500 so a report can be matched to the log line holding the trace. */
  request_id?: string;
  [extra: string]: unknown;
}

export class AppError extends Error {
  constructor(
    readonly type: ErrorType,
    message: string,
    readonly errors?: FieldError[],
    /** Extra members of the error body, e.g. `context` on NotFound. */
    readonly extra?: Record<string, unknown>,
    /** Extra HTTP headers, e.g. `WWW-Authenticate` or `Retry-After`. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = type;
  }

  get httpStatus(): number {
    return ERROR_TYPES[this.type].http;
  }

  toBody(): ErrorBody {
    return {
      ...this.extra,
      type: this.type,
      message: this.message,
      ...(this.errors?.length ? { errors: this.errors } : {}),
    };
  }
}

export const badRequest = (message: string, errors?: FieldError[]) => new AppError('BadRequest', message, errors);
export const notFound = (message: string, extra?: Record<string, unknown>) =>
  new AppError('NotFound', message, undefined, extra);
export const forbidden = (message: string) => new AppError('Forbidden', message);
export const conflict = (message: string) => new AppError('Conflict', message);
export const unauthorized = (message: string, headers?: Record<string, string>) =>
  new AppError('Unauthorized', message, undefined, undefined, headers);
export const methodNotAllowed = (method: string, allowed: readonly string[]) =>
  new AppError(
    'MethodNotAllowed',
    `Method ${method} is not allowed here; allowed: ${allowed.join(', ')}`,
    undefined,
    undefined,
    {
      Allow: allowed.join(', '),
    },
  );

/** Longest text of the request the messages of a 404 or 400 repeat. */
const ECHO_LIMIT = 200;

/** A piece of the request for a message: never longer than `limit` characters, and no surrogate pair cut in two. */
export function clip(text: string, limit = ECHO_LIMIT): string {
  if (text.length <= limit) return text;
  const end = isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit;
  return `${text.slice(0, end)}…`;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

export function isErrorType(value: string): value is ErrorType {
  return Object.prototype.hasOwnProperty.call(ERROR_TYPES, value);
}
