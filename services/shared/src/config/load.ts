import { z } from 'zod';
import { serviceAuthEnv } from '../grpc/service-auth';

/**
 * Reads a process's configuration from the environment through one schema;
 * fails at start naming every bad variable.
 */
export function loadConfig<S extends z.ZodTypeAny>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) =>
      issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    ),
  );
}

/** Bad environment variables: one problem per line, `NAME: what is wrong` (printed as is at start, no stack). */
export class ConfigError extends Error {
  override name = 'ConfigError';

  constructor(readonly problems: string[]) {
    super(problems.map((problem) => `Invalid configuration: ${problem}`).join('\n'));
  }
}

/** Variables every service process shares. */
export const commonEnv = {
  ...serviceAuthEnv,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Embedded store location; ignored when MONGO_URL is set. */
  DATA_DIR: z.string().min(1).default('./data'),
  MONGO_URL: z.string().url().optional(),
  AMQP_URL: z.string().url().optional(),
  /** Largest gRPC message; must hold the gateway's largest body. */
  MAX_MESSAGE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
  /** Deadline of calls to other services. */
  CALL_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * `true`: responses use the original platform's identifiers (`plone.*`, `Plone Site`, `plone_setup`, `volto.blocks`)
   * instead of the specification's neutral ones; either is taken on input (addendum §8).
   */
  ORIGINAL_IDENTIFIERS: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
};

/** How a service's responses name identifiers (the dispatcher's `identifiers` option). */
export const identifiersOf = (config: { ORIGINAL_IDENTIFIERS: boolean }) =>
  config.ORIGINAL_IDENTIFIERS ? ('original' as const) : ('neutral' as const);

/** `host:port` of a gRPC endpoint. */
export const address = z.string().regex(/^[^\s:]+:\d+$/, 'expected host:port');
