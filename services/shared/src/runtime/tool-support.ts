/**
 * What the command-line tools that talk to a running suite share (`npm run import`, `npm run export`): where a
 * service is, and progress shown as a bar on a terminal or as plain lines in a log.
 */
import { SingleBar } from 'cli-progress';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { address } from '../config/load';

/** Written by the embedded mode while it runs (services/embedded/src/addresses.ts). */
const EMBEDDED_ADDRESSES_FILE = 'embedded-addresses.json';

export type SuiteService = 'content' | 'identity' | 'search' | 'discussion' | 'config';

/**
 * Where `service` is, and how that was found (for error messages): `explicit` (its *_ADDRESS variable) when set;
 * else the address the embedded mode (`npm start`) on `dataDir` wrote; else `fallback`.
 */
export function suiteServiceAddress(
  service: SuiteService,
  explicit: string | undefined,
  dataDir: string,
  fallback: string,
): { address: string; from: string } {
  const variable = `${service.toUpperCase()}_ADDRESS`;
  if (explicit) return { address: explicit, from: variable };
  const file = join(dataDir, EMBEDDED_ADDRESSES_FILE);
  if (existsSync(file)) {
    const written = address.safeParse((JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)[service]);
    if (!written.success) throw new Error(`${file} names no ${service} address`);
    return { address: written.data, from: `${file}, written by the embedded mode (is \`npm start\` running?)` };
  }
  return { address: fallback, from: `the default; set ${variable}` };
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
