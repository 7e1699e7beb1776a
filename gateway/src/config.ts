import { address, commonEnv, grpcTarget, serviceAuthEnv } from '@cms/shared';
import { z } from 'zod';
import type { JsonShapeLimits } from './json-shape';

/** `a.example.org, b.example.org:8443` → lower-cased `host[:port]` names; each must be one. */
const hostList = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/, 'expected host[:port]')));

/** `https://a.example.org, http://localhost:3000` → origins (scheme, host, port; no path). */
const originList = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z
        .string()
        .url()
        .refine((origin) => new URL(origin).origin === origin.replace(/\/+$/, ''), 'expected an origin, no path')
        .transform((origin) => new URL(origin).origin),
    ),
  );

export const gatewayConfigSchema = z
  .object({
    ...serviceAuthEnv,
    LOG_LEVEL: commonEnv.LOG_LEVEL,
    CALL_TIMEOUT_MS: commonEnv.CALL_TIMEOUT_MS,
    MAX_MESSAGE_BYTES: commonEnv.MAX_MESSAGE_BYTES,
    SHUTDOWN_TIMEOUT_MS: commonEnv.SHUTDOWN_TIMEOUT_MS,
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('0.0.0.0'),
    /** Absolute prefix of every `@id`; a path in it is stripped from incoming paths. Default `http://localhost:<PORT>`. */
    PUBLIC_URL: z.string().url().optional(),
    /** Largest request body; larger is 413. */
    MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(32 * 1024 * 1024),
    /** Largest body of an anonymous request (`@login`); larger is 413, or 401 on a write that needs a login. */
    MAX_ANONYMOUS_BODY_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(64 * 1024),
    /**
     * Request body bytes one gateway process holds at once; a body larger than MAX_ANONYMOUS_BODY_BYTES that
     * does not fit is 503 with Retry-After, before it is read. Default: 4 × MAX_BODY_BYTES.
     */
    MAX_BODY_BYTES_IN_FLIGHT: z.coerce.number().int().positive().optional(),
    /**
     * Of MAX_BODY_BYTES_IN_FLIGHT, what one principal may hold; past it, its bodies are 503 with Retry-After
     * while others still get the rest. An anonymous client address may hold 16 × MAX_ANONYMOUS_BODY_BYTES (if
     * less). Bodies count by the bytes received (inflated, when compressed), not by their Content-Length.
     * Default: half of MAX_BODY_BYTES_IN_FLIGHT, and at least MAX_BODY_BYTES.
     */
    MAX_BODY_BYTES_IN_FLIGHT_PER_CALLER: z.coerce.number().int().positive().optional(),
    /**
     * JSON body shape, measured by the gateway as the bytes arrive, before anything parses them (json-shape.ts):
     * deeper nesting is 400; more members in one object, elements in one array, members and elements in all,
     * or bytes in one member name is 413. The defaults pass a page at content's cap of 2,000 blocks with 100
     * tables of 120 cells (about 210,000 members), and keep a wide object's per-member validation short
     * (content holds at most 2,000 blocks and 1,000 subjects anyway).
     */
    JSON_MAX_DEPTH: z.coerce.number().int().positive().default(100),
    JSON_MAX_OBJECT_MEMBERS: z.coerce.number().int().positive().default(4000),
    JSON_MAX_ARRAY_ELEMENTS: z.coerce.number().int().positive().default(20_000),
    JSON_MAX_TOTAL_MEMBERS: z.coerce.number().int().positive().default(300_000),
    JSON_MAX_KEY_BYTES: z.coerce.number().int().positive().default(1024),
    /**
     * Bytes of one JSON string value, as sent; longer is 413. Default: MAX_BODY_BYTES, since files travel in
     * JSON as base64 strings (Volto's uploads); lower it where no such upload is expected.
     */
    JSON_MAX_STRING_BYTES: z.coerce.number().int().positive().optional(),
    /**
     * How many reverse proxies in front of the gateway append the peer they saw to X-Forwarded-For; the client
     * address (identity throttles logins by it) is then the one the outermost saw. 0: the socket's peer is the
     * client and X-Forwarded-For is ignored (a client could write anything there).
     */
    TRUST_PROXY: z.coerce.number().int().min(0).max(16).default(0),
    /**
     * Other public hosts this deployment answers as (`host[:port]`, comma-separated): a request naming one in its
     * `Host` (or, behind TRUST_PROXY proxies, `X-Forwarded-Host`) gets `@id`s and links under that origin, e.g.
     * Volto's host in its seamless mode. Any other host gets PUBLIC_URL; empty: always PUBLIC_URL.
     */
    PUBLIC_HOSTS: hostList,
    /** Origins allowed to call the API from a browser (CORS), comma-separated; empty (the default): CORS off. */
    CORS_ALLOW_ORIGINS: originList,
    CORS_ALLOW_METHODS: z.string().default('GET, POST, PUT, PATCH, DELETE, OPTIONS'),
    CORS_ALLOW_HEADERS: z.string().default('Accept, Authorization, Content-Type, Lock-Token, Prefer, X-Request-Id'),
    CORS_EXPOSE_HEADERS: z.string().default('Content-Type, Location, Retry-After, X-Request-Id, X-Search-Lag'),
    CORS_ALLOW_CREDENTIALS: z
      .enum(['true', 'false'])
      .default('true')
      .transform((value) => value === 'true'),
    /** How long a browser may keep a preflight's answer, in seconds. */
    CORS_MAX_AGE: z.coerce.number().int().nonnegative().default(3600),
    /** Worker processes serving HTTP; 0 serves from this process. */
    GATEWAY_WORKERS: z.coerce.number().int().min(0).max(64).default(0),
    READY_TIMEOUT_MS: z.coerce.number().int().positive().default(1000),
    /** How long a verified Authorization header is trusted without asking identity (while its invalidation stream is open); 0: never. */
    AUTH_CACHE_TTL_MS: z.coerce.number().int().nonnegative().default(10_000),
    /**
     * Bytes of rendered answers each gateway process keeps (http-cache.ts; the caching settings turn it on and
     * off); 0 (the default): no gateway cache, validators and Cache-Control still apply. Kept exact by a change
     * stream to every content replica (replica-subscriptions.ts), however many share the store.
     */
    GATEWAY_CACHE_BYTES: z.coerce.number().int().nonnegative().default(0),
    CONTENT_ADDRESS: grpcTarget.default('127.0.0.1:50051'),
    IDENTITY_ADDRESS: grpcTarget.default('127.0.0.1:50052'),
    SEARCH_ADDRESS: grpcTarget.default('127.0.0.1:50053'),
    DISCUSSION_ADDRESS: grpcTarget.default('127.0.0.1:50054'),
    CONFIG_ADDRESS: grpcTarget.default('127.0.0.1:50055'),
    /** The content service's file hop (its CONTENT_FILES_HTTP_ADDRESS): `@@download` and `@@images` stream from it. */
    CONTENT_FILES_ADDRESS: address.default('127.0.0.1:50061'),
  })
  .superRefine((config, ctx) => {
    if (config.MAX_BODY_BYTES + 1024 * 1024 > config.MAX_MESSAGE_BYTES) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['MAX_BODY_BYTES'],
        message: 'must be at least 1 MiB below MAX_MESSAGE_BYTES',
      });
    }
    if (config.MAX_BODY_BYTES_IN_FLIGHT !== undefined && config.MAX_BODY_BYTES_IN_FLIGHT < config.MAX_BODY_BYTES) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['MAX_BODY_BYTES_IN_FLIGHT'],
        message: 'must be at least MAX_BODY_BYTES',
      });
    }
    const perCaller = config.MAX_BODY_BYTES_IN_FLIGHT_PER_CALLER;
    if (perCaller !== undefined && (perCaller < config.MAX_BODY_BYTES || perCaller > bodyBytesInFlight(config))) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['MAX_BODY_BYTES_IN_FLIGHT_PER_CALLER'],
        message: 'must be at least MAX_BODY_BYTES and at most MAX_BODY_BYTES_IN_FLIGHT',
      });
    }
  });

/** The bound on body bytes in flight: configured, or room for four of the largest bodies. */
export function bodyBytesInFlight(config: Pick<GatewayConfig, 'MAX_BODY_BYTES' | 'MAX_BODY_BYTES_IN_FLIGHT'>): number {
  return config.MAX_BODY_BYTES_IN_FLIGHT ?? 4 * config.MAX_BODY_BYTES;
}

/** What one caller may hold of the bytes in flight: configured, or half of them (at least one largest body). */
export function bodyBytesInFlightPerCaller(
  config: Pick<GatewayConfig, 'MAX_BODY_BYTES' | 'MAX_BODY_BYTES_IN_FLIGHT' | 'MAX_BODY_BYTES_IN_FLIGHT_PER_CALLER'>,
): number {
  return (
    config.MAX_BODY_BYTES_IN_FLIGHT_PER_CALLER ??
    Math.max(config.MAX_BODY_BYTES, Math.floor(bodyBytesInFlight(config) / 2))
  );
}

/** The JSON shape limits of the configuration (json-shape.ts). */
export function jsonShapeLimits(config: GatewayConfig): JsonShapeLimits {
  return {
    depth: config.JSON_MAX_DEPTH,
    objectMembers: config.JSON_MAX_OBJECT_MEMBERS,
    arrayElements: config.JSON_MAX_ARRAY_ELEMENTS,
    totalMembers: config.JSON_MAX_TOTAL_MEMBERS,
    keyBytes: config.JSON_MAX_KEY_BYTES,
    stringBytes: config.JSON_MAX_STRING_BYTES ?? config.MAX_BODY_BYTES,
  };
}

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
