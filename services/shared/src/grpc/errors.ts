import * as grpc from '@grpc/grpc-js';
import { AppError, ERROR_TYPES, type ErrorType, isErrorType } from '../errors/app-error';
import type { Logger } from '../logging/logger';

/** Metadata key carrying an AppError across gRPC: `{type, message, errors, extra, headers}` as JSON. */
const ERROR_METADATA_KEY = 'cms-error-bin';

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
  const wire: WireError = {
    type: appError.type,
    message: appError.message,
    errors: appError.errors,
    extra: appError.extra,
    headers: appError.headers,
  };
  const metadata = new grpc.Metadata();
  metadata.set(ERROR_METADATA_KEY, Buffer.from(JSON.stringify(wire)));
  return { code: ERROR_TYPES[appError.type].grpc, details: appError.message, metadata };
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
