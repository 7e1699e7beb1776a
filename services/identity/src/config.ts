import { address, commonEnv } from '@cms/shared';
import { z } from 'zod';

export const identityConfigSchema = z
  .object({
    ...commonEnv,
    IDENTITY_GRPC_ADDRESS: address.default('0.0.0.0:50052'),
    ADMIN_USER: z.string().min(1).default('admin'),
    /** Required with a production store (MONGO_URL); `admin` on the embedded store, with a warning. */
    ADMIN_PASSWORD: z.string().min(1).optional(),
    /** How long a verified Basic login is remembered (as a keyed hash). */
    CREDENTIAL_CACHE_TTL_MS: z.coerce.number().int().nonnegative().default(60_000),
  })
  .superRefine((config, ctx) => {
    if (config.MONGO_URL && !config.ADMIN_PASSWORD) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['ADMIN_PASSWORD'],
        message: 'required with a production store (MONGO_URL)',
      });
    }
  });

export type IdentityConfig = z.infer<typeof identityConfigSchema>;
