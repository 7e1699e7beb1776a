/**
 * A one-off tool that asks a running service to rebuild what it derives from the stores (`npm run reindex`,
 * `npm run translations:rebuild`): finds the service (`toolTarget`), calls its streaming rebuild RPC with
 * `--from-scratch` or not, shows its progress (`followProgress`) and prints one line at the end. Exit status: 0
 * done, 1 failed (a setting, the service, the call), 2 a usage error.
 */
import type * as grpc from '@grpc/grpc-js';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { address, ConfigError, loadConfig } from '../config/load';
import { serviceAuthEnv, useServiceKeys } from '../grpc/service-auth';
import { requestMetadata } from '../grpc/client';
import type { ProgressMessage } from '../grpc/progress-stream';
import { toolTarget } from './embedded-addresses';
import { exitOnHelp, followProgress } from './tool-support';

export interface RebuildTool<Client extends grpc.Client, Result> {
  /** The label of its progress lines (`reindex: 10/20 …`). */
  label: string;
  /** What failed, in its error line (`reindex failed: …`). */
  failing: string;
  usage: string;
  /** The service asked, as the embedded mode's addresses file names it. */
  service: string;
  /** The variable of its address, and the address without it or the embedded mode's file. */
  addressVariable: string;
  defaultAddress: string;
  /** The variable of how long the whole rebuild may last (default 30 minutes). */
  timeoutVariable: string;
  /** The service's client at an address. */
  connect(address: string): Client;
  /** Starts the rebuild on the service: its progress messages, the last one with the result. */
  start(
    client: Client,
    request: { from_scratch: boolean },
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
  ): AsyncIterable<ProgressMessage<Result>>;
  /** The line printed at the end. */
  done(result: Result): string;
}

/** Runs the tool on `args` (the command line after the script) and exits. */
export function runRebuildTool<Client extends grpc.Client, Result>(
  tool: RebuildTool<Client, Result>,
  args: readonly string[] = process.argv.slice(2),
): void {
  exitOnHelp(tool.usage, args);
  if (args.some((arg) => arg !== '--from-scratch')) {
    process.stderr.write(tool.usage);
    process.exit(2);
  }
  // Done, it ends by itself once the client is closed (an exit now could cut what is still written to a pipe).
  rebuild(tool, args.includes('--from-scratch')).catch((error: Error) => {
    console.error(error instanceof ConfigError ? error.message : `${tool.failing} failed: ${error.message}`);
    process.exit(1);
  });
}

async function rebuild<Client extends grpc.Client, Result>(
  tool: RebuildTool<Client, Result>,
  fromScratch: boolean,
): Promise<void> {
  const config = loadConfig(
    z.object({
      ...serviceAuthEnv,
      [tool.addressVariable]: address.optional(),
      DATA_DIR: z.string().min(1).default('./data'),
      [tool.timeoutVariable]: z.coerce
        .number()
        .int()
        .positive()
        .default(30 * 60_000),
    }),
  ) as { DATA_DIR: string; SERVICE_AUTH_KEY?: string } & Record<string, unknown>;
  const target = toolTarget(
    tool.service,
    { variable: tool.addressVariable, address: config[tool.addressVariable] as string | undefined },
    config.DATA_DIR,
    tool.defaultAddress,
  );
  // The key the services verify: SERVICE_AUTH_KEY, else the embedded mode's own from its addresses file.
  useServiceKeys({ ...config, SERVICE_AUTH_KEY: config.SERVICE_AUTH_KEY ?? target.serviceKey });
  const client = tool.connect(target.address);
  try {
    const requestId = randomUUID();
    const messages = tool.start(client, { from_scratch: fromScratch }, requestMetadata(requestId), {
      deadline: Date.now() + (config[tool.timeoutVariable] as number),
    });
    const result = await followProgress(tool.label, messages, requestId).catch((error: Error) => {
      throw new Error(`${error.message} (${tool.service} service at ${target.address}, from ${target.from})`);
    });
    console.log(tool.done(result));
  } finally {
    client.close();
  }
}
