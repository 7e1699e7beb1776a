import { address, commonEnv } from '@cms/shared';
import { z } from 'zod';

export const gatewayConfigSchema = z
  .object({
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
    /** Worker processes serving HTTP; 0 serves from this process. */
    GATEWAY_WORKERS: z.coerce.number().int().min(0).max(64).default(0),
    READY_TIMEOUT_MS: z.coerce.number().int().positive().default(1000),
    /** How long a verified Authorization header is trusted without asking identity (while its invalidation stream is open); 0: never. */
    AUTH_CACHE_TTL_MS: z.coerce.number().int().nonnegative().default(10_000),
    CONTENT_ADDRESS: address.default('127.0.0.1:50051'),
    IDENTITY_ADDRESS: address.default('127.0.0.1:50052'),
    SEARCH_ADDRESS: address.default('127.0.0.1:50053'),
    DISCUSSION_ADDRESS: address.default('127.0.0.1:50054'),
    CONFIG_ADDRESS: address.default('127.0.0.1:50055'),
  })
  .superRefine((config, ctx) => {
    if (config.MAX_BODY_BYTES + 1024 * 1024 > config.MAX_MESSAGE_BYTES) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['MAX_BODY_BYTES'],
        message: 'must be at least 1 MiB below MAX_MESSAGE_BYTES',
      });
    }
  });

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
