import { runStandalone } from '@cms/shared/adapters';
import { configConfigSchema } from './config';
import { startConfigService } from './service';

runStandalone('config', configConfigSchema, startConfigService);
