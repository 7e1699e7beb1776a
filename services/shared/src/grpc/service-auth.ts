import * as grpc from '@grpc/grpc-js';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Logger } from '../logging/logger';
import { failStream } from './errors';

/**
 * Service-to-service authentication: every gRPC call carries a proof, an HMAC-SHA256 under a key every process of
 * the suite shares, over the method, the request id, the client address, the time it was made and the SHA-256 of
 * the request's serialized bytes (so the principal and roles the request claims are covered). A server checks it
 * before any handler runs and refuses the call (UNAUTHENTICATED) without a valid one, or with one older or newer
 * than `SERVICE_PROOF_WINDOW_MS` (the clocks of the suite's hosts must agree within it). Why this and not mutual
 * TLS: one shared secret is all a platform team configures (no CA, no certificates to issue and renew per
 * service), and it costs two hashes per call; it does not hide the traffic, which a network policy or a mesh with
 * TLS does, and a proof seen on the wire can be replayed (same method, same request) within the window.
 */

export const SERVICE_PROOF_KEY = 'x-service-proof';
/** How far a proof's time may lie from the receiver's clock, either way. */
export const SERVICE_PROOF_WINDOW_MS = 30_000;
const PROOF_VERSION = 'v1';
const MIN_KEY_LENGTH = 32;

/** Settings of every process that calls or serves gRPC (the gateway and every service). */
export const serviceAuthEnv = {
  /** The shared key that signs and verifies calls between the suite's processes (32 characters or more). */
  SERVICE_AUTH_KEY: z.string().min(MIN_KEY_LENGTH).optional(),
  /** During a rotation: the key being retired, still accepted from callers but never used to sign. */
  SERVICE_AUTH_PREVIOUS_KEY: z.string().min(MIN_KEY_LENGTH).optional(),
};

export interface ServiceAuthSettings {
  SERVICE_AUTH_KEY?: string;
  SERVICE_AUTH_PREVIOUS_KEY?: string;
}

/** For a process that calls other processes: without the shared key no call of its would be accepted. */
export function requireServiceKey(settings: ServiceAuthSettings, ctx: z.RefinementCtx): void {
  if (!settings.SERVICE_AUTH_KEY)
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['SERVICE_AUTH_KEY'],
      message: 'required when a service runs as its own process (the key every process of the suite shares)',
    });
}

interface Keys {
  /** As configured, to hand on to a process this one starts. */
  setting: string;
  sign: Buffer;
  verify: Buffer[];
}

let keys: Keys | undefined;

/**
 * Sets the key this process signs and verifies with. A process holds one key: setting another one fails (two
 * services started in one process with different keys could not call each other).
 */
export function useServiceKeys(settings: ServiceAuthSettings): void {
  if (!settings.SERVICE_AUTH_KEY) return;
  const sign = Buffer.from(settings.SERVICE_AUTH_KEY);
  if (keys) {
    if (!keys.sign.equals(sign)) throw new Error('this process already uses another SERVICE_AUTH_KEY');
    return;
  }
  const previous = settings.SERVICE_AUTH_PREVIOUS_KEY ? [Buffer.from(settings.SERVICE_AUTH_PREVIOUS_KEY)] : [];
  keys = { setting: settings.SERVICE_AUTH_KEY, sign, verify: [sign, ...previous] };
}

/**
 * The key of this process. Without a configured one a process makes a random key of its own, which only the
 * services in this process know (the embedded mode, tests that start services in their own process): a call
 * from elsewhere is still refused.
 */
function processKeys(): Keys {
  if (!keys) {
    const setting = newServiceKey();
    const sign = Buffer.from(setting);
    keys = { setting, sign, verify: [sign] };
  }
  return keys;
}

/** The signing key as a setting, for a process this one starts (the embedded mode's gateway workers and tools). */
export function serviceKeySetting(): string {
  return processKeys().setting;
}

/** A random key as a setting (base64url, 43 characters). */
export function newServiceKey(): string {
  return randomBytes(32).toString('base64url');
}

function digestOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64url');
}

const EMPTY_DIGEST = digestOf(new Uint8Array(0));

interface ProofClaims {
  /** The full method path, `/cms.content.v1.ContentService/Handle`. */
  method: string;
  requestId: string;
  clientAddress: string;
  issuedAt: number;
  /** SHA-256 of the serialized request; of nothing for a client-streaming call. */
  bodyDigest: string;
}

function mac(key: Buffer, claims: ProofClaims): Buffer {
  return createHmac('sha256', key)
    .update(
      [PROOF_VERSION, claims.method, claims.requestId, claims.clientAddress, claims.issuedAt, claims.bodyDigest].join(
        '\n',
      ),
    )
    .digest();
}

/** `v1.<issued at, ms>.<mac>`: what a caller puts in `x-service-proof`. */
export function signServiceProof(claims: ProofClaims, key: Buffer = processKeys().sign): string {
  return `${PROOF_VERSION}.${claims.issuedAt}.${mac(key, claims).toString('base64url')}`;
}

const PROOF = /^v1\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

/** Why a proof is refused, for the log (never the proof itself); undefined when it holds. */
export function checkServiceProof(
  proof: unknown,
  claims: Omit<ProofClaims, 'issuedAt'>,
  now: number = Date.now(),
): string | undefined {
  if (typeof proof !== 'string') return 'no service proof';
  const match = PROOF.exec(proof);
  if (!match) return 'malformed service proof';
  const issuedAt = Number(match[1]);
  if (Math.abs(now - issuedAt) > SERVICE_PROOF_WINDOW_MS) return 'service proof outside its time window';
  const given = Buffer.from(match[2]!, 'base64url');
  const holds = processKeys().verify.some((key) => timingSafeEqual(mac(key, { ...claims, issuedAt }), given));
  return holds ? undefined : 'service proof does not match';
}

/** What a plain HTTP request between the suite's processes claims (the file hop, http/file-hop.ts). */
export interface HttpProofClaims {
  /** The HTTP method. */
  method: string;
  /** The request target as sent (path and query). */
  path: string;
  requestId: string;
  /** The header that says what the request is for and for whom (the forwarded request of the file hop). */
  claim: string;
  issuedAt?: number;
}

/**
 * The same proof for plain HTTP: `HTTP <method> <target>` stands in for the gRPC method (which always starts with
 * `/`, so a proof of one kind never passes for the other), the SHA-256 of the claim header for the message bytes.
 * A body streaming after the headers is not covered (the claim says whose it is and where it goes).
 */
function httpProofClaims({ method, path, requestId, claim }: HttpProofClaims): Omit<ProofClaims, 'issuedAt'> {
  return {
    method: `HTTP ${method} ${path}`,
    requestId,
    clientAddress: '',
    bodyDigest: digestOf(Buffer.from(claim, 'utf8')),
  };
}

/** The proof a caller puts in the `x-service-proof` header of a plain HTTP request to another process. */
export function signHttpProof(claims: HttpProofClaims): string {
  return signServiceProof({ ...httpProofClaims(claims), issuedAt: claims.issuedAt ?? Date.now() });
}

/** Why the proof of a plain HTTP request is refused, for the log; undefined when it holds. */
export function checkHttpProof(proof: unknown, claims: HttpProofClaims, now: number = Date.now()): string | undefined {
  return checkServiceProof(proof, httpProofClaims(claims), now);
}

function metadataString(metadata: grpc.Metadata, key: string): string {
  const value = metadata.get(key)[0];
  return typeof value === 'string' ? value : '';
}

// The request id and client address keys of server.ts, repeated here so that this module imports neither
// server.ts nor client.ts (both import it).
const REQUEST_ID = 'x-request-id';
const CLIENT_ADDRESS = 'x-client-address';

/**
 * Signs every call of a client. The metadata waits for the request message, so that the proof covers its bytes
 * (serialized once more here: the interceptor sees the object, not the bytes grpc-js will send).
 */
export const serviceProofInterceptor: grpc.Interceptor = (options, nextCall) => {
  const definition = options.method_definition;
  const sign = (metadata: grpc.Metadata, bodyDigest: string) => {
    metadata.set(
      SERVICE_PROOF_KEY,
      signServiceProof({
        method: definition.path,
        requestId: metadataString(metadata, REQUEST_ID),
        clientAddress: metadataString(metadata, CLIENT_ADDRESS),
        issuedAt: Date.now(),
        bodyDigest,
      }),
    );
  };
  if (definition.requestStream) {
    return new grpc.InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        sign(metadata, EMPTY_DIGEST);
        next(metadata, listener);
      },
    });
  }
  let started: (() => void) | undefined;
  let startMetadata: grpc.Metadata | undefined;
  return new grpc.InterceptingCall(nextCall(options), {
    start(metadata, listener, next) {
      startMetadata = metadata;
      started = () => next(metadata, listener);
    },
    sendMessage(message, next) {
      if (started && startMetadata) {
        sign(startMetadata, digestOf(definition.requestSerialize(message)));
        const start = started;
        started = undefined;
        start();
      }
      next(message);
    },
  });
};

/** The digest of each request's bytes as received, kept beside the deserialized object. */
const receivedDigests = new WeakMap<object, string>();

type Handler = (call: grpc.ServerUnaryCall<unknown, unknown>, callback?: grpc.sendUnaryData<unknown>) => void;

/**
 * A service whose every method checks the caller's proof before its handler runs: the definition records the
 * digest of each request's bytes as it deserializes them, the implementation refuses a call whose proof does not
 * cover them.
 */
export function requireServiceProof(
  definition: grpc.ServiceDefinition,
  implementation: grpc.UntypedServiceImplementation,
  log: Logger,
): { definition: grpc.ServiceDefinition; implementation: grpc.UntypedServiceImplementation } {
  const checkedDefinition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  const checkedImplementation: grpc.UntypedServiceImplementation = {};
  for (const [name, method] of Object.entries(definition)) {
    const deserialize = method.requestDeserialize;
    checkedDefinition[name] = method.requestStream
      ? method
      : {
          ...method,
          requestDeserialize: (bytes: Buffer) => {
            const request = deserialize(bytes) as unknown;
            if (request !== null && typeof request === 'object') receivedDigests.set(request, digestOf(bytes));
            return request;
          },
        };
    const handler = (implementation[name] ?? (method.originalName && implementation[method.originalName])) as
      Handler | undefined;
    if (!handler) continue;
    const checked: Handler = (call, callback) => {
      const bodyDigest = method.requestStream
        ? EMPTY_DIGEST
        : (receivedDigests.get(call.request as object) ?? 'no request bytes');
      const refusal = checkServiceProof(call.metadata.get(SERVICE_PROOF_KEY)[0], {
        method: method.path,
        requestId: metadataString(call.metadata, REQUEST_ID),
        clientAddress: metadataString(call.metadata, CLIENT_ADDRESS),
        bodyDigest,
      });
      if (refusal === undefined) return handler(call, callback);
      log.warn({ method: method.path, peer: call.getPeer(), reason: refusal }, 'call refused: no valid service proof');
      const error = Object.assign(new Error(refusal), {
        code: grpc.status.UNAUTHENTICATED,
        details: 'the call carries no valid service proof',
        metadata: new grpc.Metadata(),
      });
      if (callback) callback(error);
      else failStream(call as unknown as grpc.ServerWritableStream<unknown, unknown>, error);
    };
    checkedImplementation[name] = checked as grpc.UntypedHandleCall;
  }
  return { definition: checkedDefinition, implementation: checkedImplementation };
}
