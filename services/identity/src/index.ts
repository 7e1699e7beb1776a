export { startIdentityService } from './service';
export { identityConfigSchema, type IdentityConfig } from './config';
