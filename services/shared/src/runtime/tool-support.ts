/**
 * What the command-line tools that talk to a running suite share (`npm run import`, `npm run export`): progress
 * shown as a bar on a terminal or as plain lines in a log. Where a service is: `toolTarget` (embedded-addresses.ts).
 */
import { SingleBar } from 'cli-progress';

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
    return {
      tick: (what) => bar.update(++done, { what: what.slice(0, 60) }),
      stop: () => bar.stop(),
    };
  }
  let last = -Infinity;
  const line = (what: string) => stream.write(`${label}: ${done}/${total} ${what}\n`);
  return {
    tick(what) {
      done += 1;
      if (now() - last < LINE_EVERY_MS && done < total) return;
      last = now();
      line(what);
    },
    stop() {
      if (done < total) line('(stopped)');
    },
  };
}
