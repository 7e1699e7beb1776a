import cluster from 'node:cluster';
import type { Logger } from '@cms/shared';

/**
 * Runs `count` gateway worker processes from the primary (the gateway is
 * stateless; on this design the HTTP process is the bottleneck, not the
 * services). A worker that dies unexpectedly is replaced; SIGTERM on the
 * primary stops every worker gracefully.
 */
export function forkGatewayWorkers(count: number, env: NodeJS.ProcessEnv, logger: Logger): { stop(): Promise<void> } {
  let stopping = false;
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
