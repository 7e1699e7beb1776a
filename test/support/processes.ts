import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { resolve } from 'node:path';

/** The workspace root (this file is `<root>/test/support/processes.ts`). */
export const ROOT = resolve(__dirname, '..', '..');

/** Output kept per process for failure messages: the last this many characters. */
const OUTPUT_LIMIT = 64 * 1024;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Children still running; SIGKILLed if the test process exits without stopping them (e.g. a jest timeout). */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;
function trackUntilExit(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const orphan of live) orphan.kill('SIGKILL');
  });
}

/** A `node` child process with its stdout and stderr captured. */
export class NodeProcess {
  readonly child: ChildProcess;
  /** Resolves when the process has exited (never rejects). */
  readonly exited: Promise<Exit>;
  /** Resolves when the process has exited and its stdout and stderr are read to the end (never rejects). */
  readonly closed: Promise<void>;
  private exit: Exit | null = null;
  private buffer = '';
  private dropped = 0;

  constructor(
    readonly name: string,
    readonly script: string,
    readonly args: string[],
    readonly env: NodeJS.ProcessEnv,
  ) {
    this.child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    trackUntilExit(this.child);
    const capture = (stream: string) => (chunk: Buffer) => this.append(stream, chunk.toString('utf8'));
    this.child.stdout?.on('data', capture('out'));
    this.child.stderr?.on('data', capture('err'));
    this.exited = new Promise<Exit>((done) => {
      this.child.once('error', (error) => {
        this.append('spawn', `${error.message}\n`);
        this.exit ??= { code: null, signal: null };
        done(this.exit);
      });
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        done(this.exit);
      });
    });
    this.closed = new Promise<void>((done) => {
      this.child.once('close', () => done());
      this.child.once('error', () => done());
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Null while running. */
  get exitStatus(): Exit | null {
    return this.exit;
  }

  get running(): boolean {
    return this.exit === null;
  }

  /** Everything it printed so far (the tail, when long). */
  get output(): string {
    return (this.dropped > 0 ? `[${this.dropped} earlier characters dropped]\n` : '') + this.buffer;
  }

  /** Sends a signal to this process only (by its pid). */
  signal(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  /**
   * SIGTERM, then SIGKILL if it has not exited within `timeoutMs`; resolves
   * with how it exited, and whether it needed the SIGKILL.
   */
  async stop(timeoutMs: number): Promise<Exit & { killed: boolean }> {
    if (!this.running) return { ...(this.exit as Exit), killed: false };
    this.signal('SIGTERM');
    const exited = await Promise.race([this.exited, delay(timeoutMs).then(() => null)]);
    if (exited) return { ...exited, killed: false };
    this.signal('SIGKILL');
    return { ...(await this.exited), killed: true };
  }

  /** SIGKILL, resolving once the process is gone. */
  async kill(): Promise<Exit> {
    this.signal('SIGKILL');
    return this.exited;
  }

  describe(): string {
    const state = this.exit
      ? `exited (code ${this.exit.code}, signal ${this.exit.signal})`
      : `running (pid ${this.pid})`;
    return `----- ${this.name}: ${state} -----\n${this.output || '(no output)'}`;
  }

  private append(stream: string, text: string): void {
    const prefixed = stream === 'out' ? text : text.replace(/^(?=.)/gm, `[${stream}] `);
    this.buffer += prefixed;
    if (this.buffer.length > OUTPUT_LIMIT) {
      const cut = this.buffer.length - OUTPUT_LIMIT;
      this.dropped += cut;
      this.buffer = this.buffer.slice(cut);
    }
  }
}

export function startNode(name: string, script: string, env: NodeJS.ProcessEnv, args: string[] = []): NodeProcess {
  return new NodeProcess(name, script, args, env);
}

/** Runs a node script to completion (bounded), with its output. */
export async function runNode(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  args: string[] = [],
): Promise<Exit & { output: string; process: NodeProcess }> {
  const child = startNode(name, script, env, args);
  const exited = await Promise.race([child.exited, delay(timeoutMs).then(() => null)]);
  if (!exited) {
    await child.kill();
    throw new Error(`${name} did not finish within ${timeoutMs} ms\n${child.describe()}`);
  }
  return { ...exited, output: child.output, process: child };
}

/**
 * Ports below Linux's ephemeral range (32768-60999 by default): a port the kernel hands out for `listen(0)` comes
 * from the range it also gives outgoing connections, so between this probe and the child's own listen an outgoing
 * connection (to the broker, between services) could take it (EADDRINUSE in a CI run).
 */
const PORT_RANGE = { from: 20_000, to: 32_767 };

/** A port nothing listens on now, outside the range outgoing connections take theirs from. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = PORT_RANGE.from + Math.floor(Math.random() * (PORT_RANGE.to - PORT_RANGE.from + 1));
    if (await canListen(port, host)) return port;
  }
  throw new Error(`no free port between ${PORT_RANGE.from} and ${PORT_RANGE.to} after 100 tries`);
}

function canListen(port: number, host: string): Promise<boolean> {
  return new Promise((done) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => done(false));
    server.listen(port, host, () => server.close(() => done(true)));
  });
}

/** Distinct free ports (a port is never handed out twice in one call). */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort(host));
  return [...ports];
}

/** Throws naming every missing file, e.g. dist files of a build that has not run. */
export function assertFilesExist(paths: string[], hint: string): void {
  const missing = paths.filter((path) => !existsSync(path));
  if (missing.length > 0) throw new Error(`Missing ${missing.join(', ')}. ${hint}`);
}

/**
 * The environment a child starts from: only what node needs, so the caller's own settings (MONGO_URL...) do not leak
 * in; grpc-js's GRPC_TRACE and GRPC_VERBOSITY pass through, to trace a failing run's connections.
 */
export function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'SYSTEMROOT', 'GRPC_TRACE', 'GRPC_VERBOSITY']) {
    if (process.env[key] !== undefined) env[key] = process.env[key];
  }
  return env;
}

function delay(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms).unref());
}
