import cluster from 'node:cluster';
import {
  createLogger,
  exitOnStartupFailure,
  loadConfig,
  requireServiceKey,
  stopOnSignals,
  useServiceKeys,
} from '@cms/shared';
import { addressesFrom } from './backends';
import { forkGatewayWorkers } from './cluster';
import { gatewayConfigSchema } from './config';
import { startGateway } from './server';

/** The gateway as its own process (distributed mode); with GATEWAY_WORKERS > 0 the primary only supervises. */
const logger = createLogger('gateway');
const boot = async () => {
  const config = loadConfig(gatewayConfigSchema.superRefine(requireServiceKey));
  logger.level = config.LOG_LEVEL;
  useServiceKeys(config);
  if (cluster.isPrimary && config.GATEWAY_WORKERS > 0) {
    const workers = forkGatewayWorkers(config.GATEWAY_WORKERS, process.env, logger);
    stopOnSignals(logger, workers, config.SHUTDOWN_TIMEOUT_MS);
    return;
  }
  const gateway = await startGateway(config, addressesFrom(config), logger);
  stopOnSignals(logger, gateway, config.SHUTDOWN_TIMEOUT_MS);
};
boot().catch(exitOnStartupFailure(logger));
