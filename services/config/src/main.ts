import { runStandalone } from '@cms/shared/adapters';
import { configConfigSchema } from './config';
import { CONFIG_CONSUMER_GROUPS } from './events/rules-consumer';
import { startConfigService } from './service';

runStandalone('config', configConfigSchema, startConfigService, CONFIG_CONSUMER_GROUPS);
