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

const STORE_SCHEMES: Record<string, StoreEngine['engine']> = {
  'postgres:': 'postgres',
  'postgresql:': 'postgres',
  'mongodb:': 'mongodb',
  'mongodb+srv:': 'mongodb',
  'sqlite:': 'sqlite',
};

const SCHEMES_EXPECTED = 'expected a postgres://, postgresql://, mongodb://, mongodb+srv:// or sqlite:/// URL';

/** A `sqlite:` URL names a folder on this machine: `sqlite:///abs/path` (or `sqlite:relative/path`), no host. */
function isSqliteFolderUrl(url: URL): boolean {
  return url.protocol !== 'sqlite:' || (url.host === '' && url.pathname !== '' && url.pathname !== '/');
}

const storeUrl = z
  .string()
  .url()
  .refine((url) => new URL(url).protocol in STORE_SCHEMES, { message: SCHEMES_EXPECTED })
  .refine((url) => isSqliteFolderUrl(new URL(url)), {
    message: 'a sqlite: URL names the folder of the database files, with no host: sqlite:///path/to/folder',
  });

/** The engine of a service's store, chosen by its configuration. */
export type StoreEngine =
  | { engine: 'embedded' }
  | { engine: 'postgres'; url: string }
  | { engine: 'mongodb'; url: string }
  | { engine: 'sqlite'; url: string };

/** Which engine the configuration names: STORE_URL, else MONGO_URL (its older name), else the embedded one. */
export function storeEngineOf(config: { STORE_URL?: string; MONGO_URL?: string }): StoreEngine {
  const url = config.STORE_URL || config.MONGO_URL;
  if (!url) return { engine: 'embedded' };
  const engine = STORE_SCHEMES[new URL(url).protocol];
  if (!engine) throw new ConfigError([`STORE_URL: ${SCHEMES_EXPECTED}`]);
  return { engine, url };
}

/** Variables every service process shares. */
export const commonEnv = {
  ...serviceAuthEnv,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Embedded store location; ignored when STORE_URL (or MONGO_URL) is set. */
  DATA_DIR: z.string().min(1).default('./data'),
  /**
   * The store's server: `postgres://…`, `postgresql://…`, `mongodb://…`, `mongodb+srv://…`, or `sqlite:///folder`
   * (a database file per service in that folder); unset: embedded.
   */
  STORE_URL: storeUrl.optional(),
  /** Older name of STORE_URL, still accepted (STORE_URL wins when both are set). */
  MONGO_URL: storeUrl.optional(),
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
   * How long a client's connection to this process's gRPC server lasts (±10 %) before the server asks it to
   * reconnect: each reconnection looks the service's name up again, so replicas added since get their share of
   * calls. 0: connections last as long as the client keeps them.
   */
  GRPC_MAX_CONNECTION_AGE_MS: z.coerce.number().int().nonnegative().default(30_000),
  /**
   * How long calls and watch streams still open on such a connection may go on after it; unset: until they end
   * (watch streams then keep their connection, while new calls take the new one).
   */
  GRPC_MAX_CONNECTION_AGE_GRACE_MS: z.coerce.number().int().positive().optional(),
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

const HOST_PORT = String.raw`[^\s:,/\[\]]+:\d{1,5}`;
const IPV4_PORT = String.raw`\d{1,3}(?:\.\d{1,3}){3}:\d{1,5}`;
const IPV6_PORT = String.raw`\[[0-9A-Fa-f:.]+\]:\d{1,5}`;

/**
 * Where a client finds every replica of a service (grpc-js target syntax; calls are balanced round robin over all
 * the addresses it names): `host:port` or `dns:///host:port` (every address the name resolves to, looked up again
 * when a connection ends: a Kubernetes headless Service), or a static list `ipv4:10.0.0.1:50051,10.0.0.2:50051`
 * (`ipv6:[::1]:50051,…`).
 */
export const grpcTarget = z
  .string()
  .max(4000)
  .regex(
    new RegExp(
      `^(?:${HOST_PORT}|dns:(?://[^\\s/]*/)?${HOST_PORT}|ipv4:${IPV4_PORT}(?:,${IPV4_PORT})*|ipv6:${IPV6_PORT}(?:,${IPV6_PORT})*)$`,
    ),
    'expected host:port, dns:///host:port, or a list ipv4:a.b.c.d:port,a.b.c.d:port',
  );
