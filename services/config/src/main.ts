import { runStandalone } from '@cms/shared';
import { configConfigSchema } from './config';
import { startConfigService } from './service';

runStandalone('config', configConfigSchema, startConfigService);
