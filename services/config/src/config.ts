import { address, commonEnv } from '@cms/shared';
import { z } from 'zod';

export const configConfigSchema = z.object({
  ...commonEnv,
  CONFIG_GRPC_ADDRESS: address.default('0.0.0.0:50055'),
});

export type ConfigConfig = z.infer<typeof configConfigSchema>;
