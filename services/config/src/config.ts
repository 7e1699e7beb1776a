import { address, commonEnv, grpcTarget } from '@cms/shared';
import { z } from 'zod';

export const configConfigSchema = z.object({
  ...commonEnv,
  CONFIG_GRPC_ADDRESS: address.default('0.0.0.0:50055'),
  /** The content service: contexts of `@content-rules`, the objects rules run on, and the rules' content actions. */
  CONTENT_ADDRESS: grpcTarget.default('127.0.0.1:50051'),
  /** The identity service: the groups and roles of a user, for the rules' group and role conditions. */
  IDENTITY_ADDRESS: grpcTarget.default('127.0.0.1:50052'),
});

export type ConfigConfig = z.infer<typeof configConfigSchema>;
