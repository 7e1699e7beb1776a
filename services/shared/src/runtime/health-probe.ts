/**
 * A container health check for the services (the image's `probe` command, docker/entrypoint.sh):
 *
 *   node services/shared/dist/runtime/health-probe.js <host:port> [service]
 *
 * Asks the gRPC server there `grpc.health.v1.Health/Check` (service `''` by default: the process's readiness, its
 * store and broker included; `liveness`: only that the process answers, see LIVENESS_SERVICE) and exits
 * 0 when it answers SERVING, 1 otherwise (NOT_SERVING, unreachable, or no answer within PROBE_TIMEOUT_MS, default
 * 2000), 2 on a usage error. Kubernetes has native gRPC probes; Docker Compose needs a command, and the image ships
 * no grpc_health_probe binary, so this one uses the workspace's own gRPC client.
 */
import { address } from '../config/load';
import { createHealthClient } from '../grpc/client';

const USAGE = 'usage: health-probe.js <host:port> [service]  (PROBE_TIMEOUT_MS, default 2000)';

async function probe(args: string[]): Promise<number> {
  const [target, service = ''] = args;
  const timeoutMs = Number(process.env.PROBE_TIMEOUT_MS ?? 2000);
  if (!target || !address.safeParse(target).success || args.length > 2 || !(timeoutMs > 0)) {
    console.error(USAGE);
    return 2;
  }
  // Health answers are tiny: 64 KiB is plenty for the channel's message limit.
  const client = createHealthClient(target, 64 * 1024);
  try {
    const status = await new Promise<string>((resolve) =>
      client.Check({ service }, { deadline: Date.now() + timeoutMs }, (error, response) =>
        resolve(error ? error.details || error.message : (response?.status ?? 'no status')),
      ),
    );
    const serving = status === 'SERVING';
    (serving ? console.log : console.error)(`${target}${service ? ` (${service})` : ''}: ${status}`);
    return serving ? 0 : 1;
  } finally {
    client.close();
  }
}

probe(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`probe failed: ${error.message}`);
    process.exit(1);
  },
);
