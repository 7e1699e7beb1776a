import cluster from 'node:cluster';
import { join } from 'node:path';
import type { Logger } from '@cms/shared';

/**
 * Runs `count` gateway worker processes from the primary (the gateway is
 * stateless; on this design the HTTP process is the bottleneck, not the
 * services). A worker that dies unexpectedly is replaced; SIGTERM on the
 * primary stops every worker gracefully.
 */
export function forkGatewayWorkers(count: number, env: NodeJS.ProcessEnv, logger: Logger): { stop(): Promise<void> } {
  let stopping = false;
  // Workers run the gateway's own entry point, whatever process forks them (the embedded suite, a test, a benchmark).
  cluster.setupPrimary({ exec: join(__dirname, '../dist/main.js') });
  const fork = () => cluster.fork(env);
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    logger.error({ workerPid: worker.process.pid, code, signal }, 'gateway worker died; starting another');
    fork();
  });
  for (let i = 0; i < count; i++) fork();
  return {
    async stop() {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve) => {
              worker.once('exit', () => resolve());
              worker.process.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}
