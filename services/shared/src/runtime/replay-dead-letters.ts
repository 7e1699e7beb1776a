/**
 * Replays what consumer groups dead-lettered on RabbitMQ (AMQP_URL), once the
 * cause is fixed:
 *
 *   node services/shared/dist/runtime/replay-dead-letters.js <group>...          replays, e.g. `search`
 *   node services/shared/dist/runtime/replay-dead-letters.js --count <group>...  only counts
 *
 * Each event goes back to the group's queue with its failure count reset; at
 * most as many as the dead-letter queue held at the start, so one that fails
 * again is not replayed twice in one run. Shows its progress per event (a bar on
 * a terminal, else a line every 2 s), then one line per group; exit 1 on an
 * error, 2 on a usage error.
 */
import { z } from 'zod';
import { ConfigError, loadConfig } from '../config/load';
import { countDeadLetters, replayDeadLetters } from '../events/dead-letters';
import { redactUrl } from '../logging/redact';
import { exitOnHelp, progress } from './tool-support';

const USAGE = `usage: npm run events:replay -- [--count] <group>...
  Puts what the consumer groups (e.g. search) dead-lettered back on their queues, once the cause is fixed; with
  --count, only counts. Shows the events replayed so far (a bar on a terminal, else a line every 2 s). Each event
  leaves the dead-letter queue only once its queue has it: stopped midway, the rest stay dead-lettered, and a run
  again goes on with them (an event may be replayed twice; consumers take events at least once anyway).
  Settings, from the environment:
    AMQP_URL              the broker (required)
`;
const schema = z.object({ AMQP_URL: z.string().url() });

async function main(args: string[]): Promise<number> {
  const countOnly = args.includes('--count');
  const groups = args.filter((arg) => arg !== '--count');
  if (groups.length === 0 || groups.some((group) => group.startsWith('-'))) {
    process.stderr.write(USAGE);
    return 2;
  }
  const { AMQP_URL: url } = loadConfig(schema);
  for (const group of groups) {
    try {
      if (countOnly) {
        console.log(`${group}: ${await countDeadLetters(url, group)} dead-lettered events`);
      } else {
        const report = await replayDeadLetters(url, group, (depth) => progress(group, depth));
        console.log(
          `${group}: replayed ${report.replayed} of ${report.depth} dead-lettered events (${report.from} → ${report.to})`,
        );
      }
    } catch (error) {
      throw new Error(`${group}: ${(error as Error).message} (broker ${redactUrl(url)})`, { cause: error });
    }
  }
  return 0;
}

exitOnHelp(USAGE);
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error instanceof ConfigError ? error.message : `replay failed: ${error.message}`);
    process.exit(1);
  },
);
