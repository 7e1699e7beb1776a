export { startGateway, publicUrlOf, type RunningGateway } from './server';
export { gatewayConfigSchema, type GatewayConfig } from './config';
export { forkGatewayWorkers } from './cluster';
export { addressesFrom, type BackendAddresses } from './backends';
export { parsePath } from './path';
