/**
 * The standing fuzz suite (`npm run test:fuzz`): fast-check requests on every route × method of the gateway's
 * table, as every kind of caller, against the embedded mode in a child process. After every request: no 5xx,
 * every error body JSON with `type` and `message` (or `null` for a refusal on `@users`, the specification's
 * exception). After every batch: the process alive and ready, and the state (content, local roles, catalog,
 * users, groups, registry) equal to the state before it, except where a write of the batch was accepted.
 *
 * FUZZ_SEED (default fixed) and FUZZ_RUNS (requests, default 5000) change the run; FUZZ_BATCH the requests
 * between two state comparisons; FUZZ_LOG names a file that gets every request and its answer's status (`none`
 * for a request not answered), and `<FUZZ_LOG>.out` the suite's own output, at the level FUZZ_LOG_LEVEL (default
 * error). A run reports every finding, grouped, with the seed that replays it.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { parsePath } from '../../gateway/src/path';
import { routeFor } from '../../gateway/src/routes';
import { ROUTES } from '../../gateway/src/routes.generated';
import { Client, describeRequest, type FuzzRequest, type FuzzResponse } from './support/http';
import { fuzzRequest } from './support/requests';
import { describeDifference, differences, scopeOf, snapshot, type Snapshot } from './support/state';
import { FuzzSuite } from './support/suite';

/** A whole number from the environment, or the default; anything else stops the run before it starts. */
function integerFrom(name: string, fallback: number, min: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min)
    throw new Error(`${name} must be a whole number ≥ ${min}, not "${text}"`);
  return value;
}

const SEED = integerFrom('FUZZ_SEED', 20_251_124, -(2 ** 31));
const RUNS = integerFrom('FUZZ_RUNS', 5000, 1);
const BATCH = integerFrom('FUZZ_BATCH', 50, 1);
/** Time for the run: the configuration's ten minutes, or more for a long run (about 10 ms a request is usual). */
const RUN_TIMEOUT_MS = Math.max(600_000, RUNS * 60);
/** A file to write every request and its status to, one a line (for looking at what a run sent). */
const LOG = process.env.FUZZ_LOG;
/** Above the services' call deadline (CALL_TIMEOUT_MS, 10 s): a request still unanswered then is a finding. */
const REQUEST_TIMEOUT_MS = 20_000;
/** From this many requests on, a route × method the run never sent is a finding (fewer cannot promise all). */
const RUNS_COVERING_EVERY_ROUTE = 2000;
/** Findings shown per kind; the rest are counted. */
const EXAMPLES_PER_FINDING = 3;

interface Finding {
  count: number;
  examples: string[];
}

/** The route a request reaches, as the gateway parses it (undefined where it parses no route). */
function routeOf(request: FuzzRequest) {
  const queryStart = request.target.indexOf('?');
  try {
    const parsed = parsePath(queryStart === -1 ? request.target : request.target.slice(0, queryStart));
    const route = routeFor(parsed.endpoint);
    return route ? { ...parsed, route } : undefined;
  } catch {
    return undefined;
  }
}

/** What is wrong with an answer, as a short signature for grouping, or undefined. */
function problemWith(request: FuzzRequest, response: FuzzResponse): string | undefined {
  if (response.status >= 500) return `${response.status} answer`;
  // Wide objects, long arrays, compressed bombs: the gateway refuses them before any service parses them.
  if (request.beyondBounds && response.status < 400) return `${response.status} to a body past the bounds`;
  if (request.method === 'HEAD') return undefined;
  const type = String(response.headers['content-type'] ?? '');
  const text = response.body.toString('utf8');
  if (response.status >= 400) {
    // Specification, authentication rule 4: a refusal on @users is 401 with the body `null`.
    if (response.status === 401 && text === 'null' && routeOf(request)?.endpoint === 'users') return undefined;
    if (!/^application\/json/.test(type)) return `${response.status} error not JSON (Content-Type ${type || 'none'})`;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return `${response.status} error body does not parse`;
    }
    const error = body as { type?: unknown; message?: unknown };
    if (typeof error?.type !== 'string' || typeof error.message !== 'string' || !error.message) {
      return `${response.status} error body without type and message`;
    }
    return undefined;
  }
  if (/^application\/json/.test(type) && text) {
    try {
      JSON.parse(text);
    } catch {
      return `${response.status} JSON answer does not parse`;
    }
  }
  return undefined;
}

function answerSummary(response: FuzzResponse): string {
  const text = response.body.toString('utf8');
  const shown = text.length > 300 ? `${text.slice(0, 300)}…` : text;
  return `${response.status} ${response.headers['content-type'] ?? ''} ${shown}`;
}

/** `thing×n, …` */
function counts(tally: Map<string | number, number>): string {
  return [...tally].map(([what, n]) => `${what}×${n}`).join(', ');
}

const add = <K>(tally: Map<K, number>, key: K) => tally.set(key, (tally.get(key) ?? 0) + 1);

/** One run: its batches, what they found, and what was sent. */
class FuzzRun {
  private readonly findings = new Map<string, Finding>();
  private readonly statuses = new Map<number, number>();
  private readonly heals = new Map<string, number>();
  private readonly exercised = new Set<string>();
  private sent = 0;
  private accepted = 0;
  private batches = 0;
  private before: Snapshot = new Map();

  constructor(
    private readonly suite: FuzzSuite,
    private readonly client: Client,
  ) {}

  async start(): Promise<void> {
    if (LOG) writeFileSync(LOG, '');
    this.before = await snapshot(this.suite);
  }

  /** Sends a batch, checking every answer; then the suite must be alive and changed only by the accepted writes. */
  async batch(requests: FuzzRequest[]): Promise<void> {
    const number = this.batches++;
    const scopes: string[] = [];
    const accepted: string[] = [];
    const refused: string[] = [];
    for (const request of requests) {
      const response = await this.send(request);
      if (!response || request.method === 'GET' || request.method === 'HEAD') continue;
      if (response.status >= 200 && response.status < 300) {
        this.accepted++;
        accepted.push(`${response.status} ${describeRequest(request)}`);
        const route = routeOf(request);
        scopes.push(...(route ? scopeOf(route.route.service, route.endpoint, route.context) : ['']));
      } else refused.push(describeRequest(request));
    }

    const dead = await this.suite.alive();
    if (dead) throw new Error(`batch ${number}: the suite is no longer serving: ${dead}`);
    const after = await snapshot(this.suite);
    const changed = differences(this.before, after, scopes);
    if (changed.length > 0) {
      const shown = changed.slice(0, 5).map((key) => describeDifference(this.before, after, key));
      this.note(
        'state changed outside the accepted writes',
        `batch ${number}: ${shown.join('\n    ')}\n` +
          `    accepted writes of the batch:\n      ${accepted.join('\n      ') || '(none)'}\n` +
          `    refused writes of the batch:\n      ${refused.join('\n      ') || '(none)'}`,
      );
    }
    const healed = await this.suite.heal();
    for (const what of healed) add(this.heals, what);
    this.before = healed.length > 0 ? await snapshot(this.suite) : after;
  }

  /** One request, its answer checked; undefined when there was none. */
  private async send(request: FuzzRequest): Promise<FuzzResponse | undefined> {
    this.sent++;
    let response: FuzzResponse;
    try {
      response = await this.client.send(request);
    } catch (error) {
      this.note(`no answer (${(error as Error).message})`, describeRequest(request));
      if (LOG) appendFileSync(LOG, `none ${(error as Error).message} ${describeRequest(request).slice(0, 400)}\n`);
      return undefined;
    }
    add(this.statuses, response.status);
    const reached = routeOf(request);
    if (reached) this.exercised.add(`${request.method} @${reached.endpoint}`);
    if (LOG) appendFileSync(LOG, `${response.status} ${response.ms}ms ${describeRequest(request).slice(0, 400)}\n`);
    const problem = problemWith(request, response);
    if (problem) {
      this.note(`${problem} on ${request.kind}`, `${describeRequest(request)}\n      → ${answerSummary(response)}`);
    }
    return response;
  }

  /** The checks of the whole run: every route × method sent (in a run long enough), nothing logged as an error. */
  finish(): void {
    const routes = Object.entries(ROUTES).flatMap(([endpoint, route]) => route.methods.map((m) => `${m} @${endpoint}`));
    const missed = routes.filter((route) => !this.exercised.has(route));
    if (RUNS >= RUNS_COVERING_EVERY_ROUTE && missed.length > 0) this.note('routes never sent', missed.join(', '));
    const errors = this.suite.errorLines();
    if (errors.length > 0) this.note('the suite logged errors', errors.slice(0, 5).join('\n      '));
  }

  summary(seconds: number): string {
    const statuses = new Map([...this.statuses].sort(([a], [b]) => a - b));
    return (
      `fuzz: ${this.sent} requests in ${seconds} s (seed ${SEED}), ${this.accepted} writes accepted; ` +
      `${counts(statuses)}; put back between batches: ${counts(this.heals) || 'nothing'}`
    );
  }

  /** Every finding with a few examples, or undefined when there is none. */
  report(): string | undefined {
    if (this.findings.size === 0) return undefined;
    const findings = [...this.findings].map(
      ([signature, { count, examples }]) => `${signature} (${count}×):\n    ${examples.join('\n    ')}`,
    );
    return `fuzz findings (seed ${SEED}, FUZZ_SEED=${SEED} replays them):\n\n${findings.join('\n\n')}`;
  }

  private note(signature: string, example: string): void {
    const finding = this.findings.get(signature) ?? { count: 0, examples: [] };
    finding.count++;
    if (finding.examples.length < EXAMPLES_PER_FINDING) finding.examples.push(example);
    this.findings.set(signature, finding);
  }
}

describe('fuzzing the API through the gateway', () => {
  let suite: FuzzSuite;
  let client: Client;

  beforeAll(async () => {
    suite = await FuzzSuite.start();
    client = new Client(suite.port, suite.authorizationOf, REQUEST_TIMEOUT_MS);
  }, 120_000);

  afterAll(async () => {
    client?.close();
    if (LOG) writeFileSync(LOG + '.out', suite?.process.output ?? '');
    await suite?.stop();
  });

  it(
    `${RUNS} requests, seed ${SEED}: no 5xx, JSON errors, alive, no change but accepted writes`,
    async () => {
      const started = Date.now();
      const run = new FuzzRun(suite, client);
      await run.start();
      await fc.assert(
        fc.asyncProperty(fc.array(fuzzRequest, { minLength: BATCH, maxLength: BATCH }), (batch) => run.batch(batch)),
        { seed: SEED, numRuns: Math.max(1, Math.ceil(RUNS / BATCH)), endOnFailure: true },
      );
      run.finish();
      console.log(run.summary(Math.round((Date.now() - started) / 100) / 10));
      const report = run.report();
      if (report) throw new Error(report);
    },
    RUN_TIMEOUT_MS,
  );
});
