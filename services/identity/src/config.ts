import { address, commonEnv, grpcTarget, storeEngineOf } from '@cms/shared';
import { z } from 'zod';

export const identityConfigSchema = z
  .object({
    ...commonEnv,
    IDENTITY_GRPC_ADDRESS: address.default('0.0.0.0:50052'),
    ADMIN_USER: z.string().min(1).default('admin'),
    /** Required with a production store (STORE_URL); `admin` on the embedded store, with a warning. */
    ADMIN_PASSWORD: z.string().min(1).optional(),
    /** How long a verified Basic login is remembered (as a keyed hash). */
    CREDENTIAL_CACHE_TTL_MS: z.coerce.number().int().nonnegative().default(60_000),
    /** HS256 key of the login tokens (JWT); required with STORE_URL, else generated once and kept in the store. */
    JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /** Lifetime of a token from @login or @login-renew. */
    TOKEN_TTL_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .default(12 * 3600),
    /** Failed logins (per login name) answered at full speed; each further attempt waits longer. */
    LOGIN_FAILURES_BEFORE_DELAY: z.coerce.number().int().nonnegative().default(3),
    /**
     * Failed logins (per login name) after which the name is locked for LOGIN_LOCK_SECONDS (429), for the client
     * addresses that have failed lately; the right password from an address that has not is still let in.
     */
    LOGIN_FAILURES_BEFORE_LOCK: z.coerce.number().int().positive().default(10),
    /**
     * Failed logins from one client address (an IPv6 /64), on any login names, after which the address is locked
     * for LOGIN_LOCK_SECONDS (429). The gateway tells the address (see its TRUST_PROXY).
     */
    LOGIN_CLIENT_FAILURES_BEFORE_LOCK: z.coerce.number().int().positive().default(50),
    LOGIN_LOCK_SECONDS: z.coerce.number().int().positive().default(300),
    /** Failures are forgotten after this long without another failure. */
    LOGIN_FAILURE_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
    /** First delay once LOGIN_FAILURES_BEFORE_DELAY is reached; doubles per failure up to LOGIN_DELAY_MAX_MS. */
    LOGIN_DELAY_MS: z.coerce.number().int().nonnegative().default(500),
    LOGIN_DELAY_MAX_MS: z.coerce.number().int().nonnegative().default(5000),
    /** The config service, for registry records (`cms.use_email_as_login`). */
    CONFIG_ADDRESS: grpcTarget.default('127.0.0.1:50055'),
    /** Largest portrait image, decoded (413 above). */
    PORTRAIT_MAX_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(5 * 1024 * 1024),
    /** Mails one logged-in principal may send through `@email-send` and `@email-notification` per window (429 above). */
    MAIL_SENDS_PER_PRINCIPAL: z.coerce.number().int().positive().default(20),
    /** Mails one client address (an IPv6 /64) may send through `@email-send` and `@email-notification` per window, anonymous visitors included (429 above). */
    MAIL_SENDS_PER_CLIENT: z.coerce.number().int().positive().default(10),
    /** The window of MAIL_SENDS_PER_PRINCIPAL and MAIL_SENDS_PER_CLIENT; a count starts anew when it is over. */
    MAIL_SEND_WINDOW_SECONDS: z.coerce.number().int().positive().default(3600),
    /** Reset-password mails to one user per RESET_MAIL_WINDOW_SECONDS, whoever asks (429 above). */
    RESET_MAILS_PER_USER: z.coerce.number().int().positive().default(3),
    /** Reset-password mails one client address (an IPv6 /64) may ask for per RESET_MAIL_WINDOW_SECONDS, for any users (429 above). */
    RESET_MAILS_PER_CLIENT: z.coerce.number().int().positive().default(5),
    /** The window of RESET_MAILS_PER_USER and RESET_MAILS_PER_CLIENT. */
    RESET_MAIL_WINDOW_SECONDS: z.coerce.number().int().positive().default(3600),
    /** How long a user or group removal waits for its event's confirm before answering anyway. */
    EVENT_FLUSH_TIMEOUT_MS: z.coerce.number().int().positive().default(2000),
  })
  .superRefine((config, ctx) => {
    // A server engine may be shared by several replicas, which must agree on these.
    const production = storeEngineOf(config).engine !== 'embedded';
    if (production && !config.JWT_SECRET) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['JWT_SECRET'],
        message: 'required with a production store (STORE_URL), the same on every identity replica',
      });
    }
    if (config.LOGIN_DELAY_MAX_MS >= config.CALL_TIMEOUT_MS) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['LOGIN_DELAY_MAX_MS'],
        message: 'must be below CALL_TIMEOUT_MS, or delayed logins time out',
      });
    }
    if (production && !config.ADMIN_PASSWORD) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['ADMIN_PASSWORD'],
        message: 'required with a production store (STORE_URL)',
      });
    }
  });

export type IdentityConfig = z.infer<typeof identityConfigSchema>;
