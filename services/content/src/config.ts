import { address, commonEnv, grpcTarget } from '@cms/shared';
import { z } from 'zod';

export const contentConfigSchema = z.object({
  ...commonEnv,
  CONTENT_GRPC_ADDRESS: address.default('0.0.0.0:50051'),
  /**
   * Where gateways reach this process (not a balanced name: this replica's own `host:port`, e.g. the pod's IP), for
   * the change streams that keep their caches exact across content replicas. Default: the gRPC address, with this
   * host's name for a wildcard host.
   */
  CONTENT_ADVERTISE_ADDRESS: address.optional(),
  /** The internal HTTP server of the file hop (`@@download`, `@@images` streamed to the gateway). */
  CONTENT_FILES_HTTP_ADDRESS: address.default('0.0.0.0:50061'),
  /** The identity service, for the names of users and groups on the sharing form. */
  IDENTITY_ADDRESS: grpcTarget.default('127.0.0.1:50052'),
  /** The discussion service, whose comments `@import` and `@export` carry (discussions.json). */
  DISCUSSION_ADDRESS: grpcTarget.default('127.0.0.1:50054'),
  /** The search service, for Collections' results. */
  SEARCH_ADDRESS: grpcTarget.default('127.0.0.1:50053'),
  /** The configuration service, which owns the content types. */
  CONFIG_ADDRESS: grpcTarget.default('127.0.0.1:50055'),
  SITE_ID: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .default('cms'),
  SITE_TITLE: z.string().default('Site'),
  /** Creator of the site root. */
  ADMIN_USER: z.string().min(1).default('admin'),
  /** How long a `@translations` read waits for the translation index to catch up with published events. */
  READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().nonnegative().default(2000),
  /** How long a write waits for its events to be confirmed before answering anyway. */
  EVENT_FLUSH_TIMEOUT_MS: z.coerce.number().int().positive().default(2000),
  /**
   * How old a subtree operation's mark (a rename, a move, a sharing change left unfinished) must be before the
   * periodic sweep finishes it in place of the replica that started it. A replica known to be lost (it stopped
   * beating) has its work taken over at once, whatever this says.
   */
  TREE_SWEEP_GRACE_MS: z.coerce.number().int().positive().default(30_000),
  /**
   * How many transactions the log of `@transactions` (the Undo panel) keeps: the oldest go beyond them, and can
   * then no longer be undone.
   */
  TRANSACTION_LOG_SIZE: z.coerce.number().int().min(1).max(10_000).default(200),
  /**
   * Largest file or image upload, decoded (413 above). The default's base64 form (4/3 of it) plus the rest of
   * the JSON body fits the gateway's default MAX_BODY_BYTES (32 MiB).
   */
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(20 * 1024 * 1024),
  /** Largest ZIP `@import` takes (413 above); it is received into a temporary file, never held in memory. */
  IMPORT_MAX_ZIP_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 1024),
  /** Largest sum of the sizes of an `@import` ZIP's entries, unpacked into a temporary folder (413 above). */
  IMPORT_MAX_UNPACKED_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(4 * 1024 * 1024 * 1024),
});

export type ContentConfig = z.infer<typeof contentConfigSchema>;
