import cluster from 'node:cluster';
import { gatewayConfigSchema, startGateway, addressesFrom } from '@cms/gateway';
import { createLogger, exitOnStartupFailure, loadConfig, stopOnSignals } from '@cms/shared';
import { startSuite } from './suite';

/** `pnpm start`: the whole suite in one command. Gateway workers, when asked for, run this file too. */
const logger = createLogger(cluster.isWorker ? 'gateway' : 'embedded');

const boot = async () => {
  if (cluster.isWorker) {
    const config = loadConfig(gatewayConfigSchema, { ...process.env, GATEWAY_WORKERS: '0' });
    logger.level = config.LOG_LEVEL;
    stopOnSignals(logger, await startGateway(config, addressesFrom(config), logger), config.SHUTDOWN_TIMEOUT_MS);
    return;
  }
  const suite = await startSuite();
  logger.info({ url: suite.publicUrl, port: suite.port }, 'CMS REST service ready');
  stopOnSignals(logger, suite, 15_000);
};
boot().catch(exitOnStartupFailure(logger));
