import * as grpc from '@grpc/grpc-js';
import pino from 'pino';
import { AppError, ERROR_TYPES, type ErrorType } from '../../src/errors/app-error';
import { fromServiceError, toServiceError } from '../../src/grpc/errors';

const silent = pino({ level: 'silent' });

/** What a grpc-js client sees when a server called back with `toServiceError(...)`. */
function asClientError(status: Partial<grpc.StatusObject>): grpc.ServiceError {
  return Object.assign(new Error(status.details), {
    code: status.code!,
    details: status.details!,
    metadata: status.metadata ?? new grpc.Metadata(),
  });
}

describe('errors across gRPC', () => {
  it.each(Object.keys(ERROR_TYPES) as ErrorType[])('%s keeps its type, HTTP status, fields and headers', (type) => {
    const original = new AppError(
      type,
      `a ${type}`,
      [{ field: 'title', message: 'required' }],
      { context: 'http://x' },
      { 'Retry-After': '3' },
    );
    const status = toServiceError(original, silent, 'rid-1');
    expect(status.code).toBe(ERROR_TYPES[type].grpc);
    const back = fromServiceError(asClientError(status), 'rid-1');
    expect(back.type).toBe(type);
    expect(back.httpStatus).toBe(ERROR_TYPES[type].http);
    expect(back.toBody()).toEqual({
      context: 'http://x',
      type,
      message: `a ${type}`,
      errors: [{ field: 'title', message: 'required' }],
    });
    expect(back.headers).toEqual({ 'Retry-After': '3' });
  });

  it('hides an unexpected error behind a 500 that names the request id', () => {
    const status = toServiceError(new Error('secret stack detail'), silent, 'rid-2');
    const back = fromServiceError(asClientError(status), 'rid-2');
    expect(back.httpStatus).toBe(500);
    expect(back.message).not.toContain('secret');
    expect(back.message).toContain('rid-2');
  });

  it.each([
    [grpc.status.UNAVAILABLE, 503],
    [grpc.status.DEADLINE_EXCEEDED, 504],
    [grpc.status.NOT_FOUND, 404],
    [grpc.status.INVALID_ARGUMENT, 400],
    [grpc.status.UNKNOWN, 500],
  ])('maps a bare gRPC status %s to HTTP %s', (code, http) => {
    const back = fromServiceError(asClientError({ code, details: 'x' }), 'rid-3');
    expect(back.httpStatus).toBe(http);
  });
});
