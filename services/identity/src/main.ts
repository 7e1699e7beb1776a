import { runStandalone } from '@cms/shared/adapters';
import { identityConfigSchema } from './config';
import { startIdentityService } from './service';

runStandalone('identity', identityConfigSchema, startIdentityService);
