import * as grpc from '@grpc/grpc-js';
import { AppError, clip, ERROR_TYPES, type ErrorType, type FieldError, isErrorType } from '../errors/app-error';
import { wellFormed } from '../http/urls';
import type { Logger } from '../logging/logger';

/** Metadata key carrying an AppError across gRPC: `{type, message, errors, extra, headers}` as JSON. */
const ERROR_METADATA_KEY = 'cms-error-bin';

/**
 * Bounds on an error crossing gRPC. Its text may echo the request, and it travels in trailers, which the peer
 * caps (~64 KiB of headers, past which the call and the connection fail): so whatever a handler put in the
 * error, the JSON in `cms-error-bin` stays under `WIRE_BYTES` and the status details under `DETAILS_LENGTH`.
 */
export const ERROR_BOUNDS = {
  /** UTF-8 bytes of the whole JSON error (base64 makes 4/3 of it in the trailer). */
  WIRE_BYTES: 8 * 1024,
  /** Characters of the message (the dispatcher's validation message is shorter), and UTF-8 bytes of its JSON. */
  MESSAGE_LENGTH: 1200,
  MESSAGE_BYTES: 4 * 1024,
  /** Entries of `errors`, and characters of each field and message. */
  ERRORS: 50,
  FIELD_LENGTH: 200,
  /** UTF-8 bytes of `extra` and of `headers`, each as JSON; a member that does not fit is left out. */
  EXTRA_BYTES: 1024,
  /** Characters of the status details (percent-encoded by grpc-js: up to 9 bytes a character). */
  DETAILS_LENGTH: 200,
} as const;

interface WireError {
  type: ErrorType;
  message: string;
  errors?: AppError['errors'];
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** Turns anything a handler threw into a gRPC error; unexpected errors are logged with their stack. */
export function toServiceError(error: unknown, log: Logger, requestId: string): Partial<grpc.StatusObject> {
  const appError =
    error instanceof AppError
      ? error
      : new AppError(
          'InternalServerError',
          `Internal error; quote request id ${requestId} when reporting it`,
          undefined,
          {
            request_id: requestId,
          },
        );
  if (!(error instanceof AppError)) log.error({ err: error, requestId }, 'unhandled error');
  const wire = boundedWire(appError);
  const metadata = new grpc.Metadata();
  metadata.set(ERROR_METADATA_KEY, Buffer.from(JSON.stringify(wire)));
  // grpc-js sends the details through encodeURI, which throws on a lone surrogate, outside any handler.
  const details = bounded(wire.message, ERROR_BOUNDS.DETAILS_LENGTH);
  return { code: ERROR_TYPES[appError.type].grpc, details, metadata };
}

/** The error as it crosses gRPC: well-formed text (no lone surrogate) within `ERROR_BOUNDS`, whatever it held. */
function boundedWire(error: AppError): WireError {
  const wire: WireError = { type: error.type, message: boundedMessage(error.message) };
  const extra = fitting(error.extra, ERROR_BOUNDS.EXTRA_BYTES);
  if (extra) wire.extra = extra;
  const headers = fitting(error.headers, ERROR_BOUNDS.EXTRA_BYTES) as Record<string, string> | undefined;
  if (headers) wire.headers = headers;
  if (error.errors?.length) {
    let room = ERROR_BOUNDS.WIRE_BYTES - jsonBytes(wire) - jsonBytes({ errors: [] });
    const errors: FieldError[] = [];
    for (const entry of error.errors.slice(0, ERROR_BOUNDS.ERRORS)) {
      const item = {
        field: bounded(String(entry.field), ERROR_BOUNDS.FIELD_LENGTH),
        message: bounded(String(entry.message), ERROR_BOUNDS.FIELD_LENGTH),
      };
      room -= jsonBytes(item) + 1;
      if (room < 0) break;
      errors.push(item);
    }
    wire.errors = errors;
  }
  return wire;
}

/** The message within both its bounds: JSON escapes a control character in six bytes. */
function boundedMessage(message: string): string {
  let limit: number = ERROR_BOUNDS.MESSAGE_LENGTH;
  let text = bounded(message, limit);
  while (jsonBytes(text) > ERROR_BOUNDS.MESSAGE_BYTES) {
    limit = Math.floor(limit / 2);
    text = bounded(message, limit);
  }
  return text;
}

/** Clipped to `limit` characters, lone surrogates replaced. */
function bounded(text: string, limit: number): string {
  return wellFormed(clip(text, limit));
}

/** The members of a record, in order, while their JSON fits in `limit` bytes; strings well-formed and clipped. */
function fitting(record: Record<string, unknown> | undefined, limit: number): Record<string, unknown> | undefined {
  if (!record) return undefined;
  const kept: Record<string, unknown> = {};
  let room = limit - 2;
  let any = false;
  for (const [key, raw] of Object.entries(record)) {
    const value = typeof raw === 'string' ? bounded(raw, limit) : raw;
    const name = bounded(key, ERROR_BOUNDS.FIELD_LENGTH);
    const size = jsonBytes({ [name]: value });
    if (size > room) continue;
    room -= size;
    kept[name] = value;
    any = true;
  }
  return any ? kept : undefined;
}

/** UTF-8 bytes of the JSON of a value; what JSON cannot hold (a cycle, a BigInt) is too large for any room. */
function jsonBytes(value: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? '');
  } catch {
    return Infinity;
  }
}

const TYPE_BY_GRPC_CODE: Partial<Record<grpc.status, ErrorType>> = {
  [grpc.status.INVALID_ARGUMENT]: 'BadRequest',
  [grpc.status.UNAUTHENTICATED]: 'Unauthorized',
  [grpc.status.PERMISSION_DENIED]: 'Forbidden',
  [grpc.status.NOT_FOUND]: 'NotFound',
  [grpc.status.ALREADY_EXISTS]: 'Conflict',
  [grpc.status.OUT_OF_RANGE]: 'PayloadTooLarge',
  [grpc.status.RESOURCE_EXHAUSTED]: 'TooManyRequests',
  [grpc.status.UNAVAILABLE]: 'ServiceUnavailable',
  [grpc.status.DEADLINE_EXCEEDED]: 'GatewayTimeout',
};

/** Turns a gRPC client error back into the AppError the service raised, or maps its status code. */
export function fromServiceError(error: grpc.ServiceError, requestId: string): AppError {
  const raw = error.metadata?.get(ERROR_METADATA_KEY)[0];
  if (raw !== undefined) {
    const wire = JSON.parse(Buffer.isBuffer(raw) ? raw.toString('utf8') : raw) as WireError;
    if (isErrorType(wire.type)) return new AppError(wire.type, wire.message, wire.errors, wire.extra, wire.headers);
  }
  const type = TYPE_BY_GRPC_CODE[error.code] ?? 'InternalServerError';
  const message =
    type === 'ServiceUnavailable'
      ? 'A backing service is unavailable; try again'
      : type === 'GatewayTimeout'
        ? 'A backing service did not answer in time'
        : type === 'InternalServerError'
          ? `Internal error; quote request id ${requestId} when reporting it`
          : error.details;
  return new AppError(type, message, undefined, type === 'InternalServerError' ? { request_id: requestId } : undefined);
}

/**
 * Ends a server-streaming (or bidirectional) call with `error` as its status. grpc-js sends such a stream's status
 * from its `error` event; `destroy` would end the stream without one, and the caller would wait for it until its
 * deadline (or for ever, without one).
 */
export function failStream(call: { emit(event: 'error', error: Error): boolean }, error: Error): void {
  call.emit('error', error);
}
