/**
 * What the command-line tools that talk to a running suite share (`npm run import`, `npm run export`, `reindex`,
 * `translations:rebuild`, `events:replay`): progress shown as a bar on a terminal or as plain lines in a log.
 * Where a service is: `toolTarget` (embedded-addresses.ts).
 */
import type { ServiceError } from '@grpc/grpc-js';
import { SingleBar } from 'cli-progress';
import { fromServiceError } from '../grpc/errors';
import type { ProgressMessage } from '../grpc/progress-stream';

/**
 * `--help` or `-h` among a tool's arguments: prints its usage and exits 0, before any setting is read or any
 * connection made (so it answers on a machine with nothing running).
 */
export function exitOnHelp(usage: string, args: readonly string[] = process.argv.slice(2)): void {
  if (!args.includes('--help') && !args.includes('-h')) return;
  process.stdout.write(usage.endsWith('\n') ? usage : usage + '\n');
  process.exit(0);
}

export interface Progress {
  /** One more done; `what` names it (shown on the bar, or in the line). */
  tick(what: string): void;
  /** `done` in all now (a service counting for the tool); more than the total raises it. */
  update(done: number, what: string): void;
  stop(): void;
}

/** Lines at most this often when the output is not a terminal (a log should not get a line per object). */
const LINE_EVERY_MS = 2000;

/** A bar on a terminal; else a line `label: done/total what` at most every 2 s, and at the end. */
export function progress(
  label: string,
  total: number,
  stream: NodeJS.WriteStream = process.stdout,
  now: () => number = Date.now,
): Progress {
  let done = 0;
  if (stream.isTTY) {
    const bar = new SingleBar({
      format: `${label} [{bar}] {value}/{total} {what}`,
      stream,
      hideCursor: true,
      clearOnComplete: false,
    });
    bar.start(total, 0, { what: '' });
    const update = (value: number, what: string) => {
      // More than counted at the start (objects added meanwhile): the total grows with them.
      if (value > total) bar.setTotal((total = value));
      bar.update((done = value), { what: what.slice(0, 60) });
    };
    return {
      tick: (what) => update(done + 1, what),
      update,
      stop: () => bar.stop(),
    };
  }
  let last = -Infinity;
  let lastLine = '';
  const line = (what: string) => stream.write((lastLine = `${label}: ${done}/${total} ${what}\n`));
  const update = (value: number, what: string) => {
    done = value;
    total = Math.max(total, done);
    if (now() - last < LINE_EVERY_MS && done < total) return;
    // A service's last message repeats its last step (with the result): not a line again.
    if (`${label}: ${done}/${total} ${what}\n` === lastLine) return;
    last = now();
    line(what);
  };
  return {
    tick: (what) => update(done + 1, what),
    update,
    stop() {
      if (done < total) line('(stopped)');
    },
  };
}

/**
 * Shows a service's progress messages (grpc/progress-stream.ts) with `progress(label, …)` and answers the result
 * the last one carries. A stream that ends without one, or fails, rejects (with the service's error).
 */
export async function followProgress<R>(
  label: string,
  messages: AsyncIterable<ProgressMessage<R>>,
  requestId: string,
  stream: NodeJS.WriteStream = process.stdout,
): Promise<R> {
  let bar: Progress | undefined;
  try {
    for await (const message of messages) {
      bar ??= progress(label, message.total, stream);
      bar.update(message.done, message.what);
      if (message.result) return message.result;
    }
  } catch (error) {
    throw 'code' in (error as object) ? fromServiceError(error as ServiceError, requestId) : error;
  } finally {
    bar?.stop();
  }
  throw new Error('the service ended the call without a result');
}
