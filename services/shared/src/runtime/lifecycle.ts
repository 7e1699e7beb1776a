import { ConfigError } from '../config/load';
import type { Logger } from '../logging/logger';

export interface Stoppable {
  stop(): Promise<void>;
}

/**
 * Stops the process cleanly on SIGTERM/SIGINT: the given stop function is
 * responsible for the order (stop serving, drain, stop consumers, close the
 * store last). A second signal, or a stop that hangs past the timeout, exits.
 */
export function stopOnSignals(log: Logger, target: Stoppable, timeoutMs: number): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      log.error('shutdown timed out');
      process.exit(1);
    }, timeoutMs + 2000);
    timer.unref();
    target.stop().then(
      () => {
        log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', handle);
  process.once('SIGINT', handle);
}

/**
 * Exits with status 1 when start-up fails. Bad configuration is the caller's
 * to fix, so it gets one plain line per bad variable on stderr (no log
 * record, no stack); any other failure is logged with its stack.
 */
export function exitOnStartupFailure(log: Logger) {
  return (error: unknown): never => {
    if (error instanceof ConfigError) {
      process.stderr.write(error.message + '\n');
    } else {
      log.fatal({ err: error }, error instanceof Error ? error.message : 'start-up failed');
    }
    process.exit(1);
  };
}
