export { startConfigService } from './service';
export { configConfigSchema, type ConfigConfig } from './config';
export { CONFIG_CONSUMER_GROUPS } from './events/rules-consumer';
