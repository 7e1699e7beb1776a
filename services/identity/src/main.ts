import { runStandalone } from '@cms/shared';
import { identityConfigSchema } from './config';
import { startIdentityService } from './service';

runStandalone('identity', identityConfigSchema, startIdentityService);
