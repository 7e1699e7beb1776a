import { createLogger, exitOnStartupFailure, stopOnSignals } from '@cms/shared';
import { startSuite } from './suite';

/** `npm start`: the whole suite in one command. */
const logger = createLogger('embedded');

const boot = async () => {
  const suite = await startSuite();
  logger.info({ url: suite.publicUrl, port: suite.port }, 'CMS REST service ready');
  stopOnSignals(logger, suite, 15_000);
};
boot().catch(exitOnStartupFailure(logger));
