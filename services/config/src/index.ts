export { startConfigService } from './service';
export { configConfigSchema, type ConfigConfig } from './config';
