/**
 * The system under fuzzing: the embedded mode (`services/embedded/dist/main.js`) as a child process, so that a
 * crash is seen as an exit and not as the death of the test run, with a fixture tree, users and groups to aim
 * at, and the callers the fuzzer sends as. What the fuzzer may break in them (a password, a role, a deleted
 * fixture) is put back between batches, through the built-in administrator, which the fuzzer never targets.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GIF, png, upload } from '../../support/images';
import { pollUntil } from '../../support/poll';
import { assertFilesExist, baseEnv, freePort, ROOT, startNode, type NodeProcess } from '../../support/processes';
import type { Caller } from './http';

export const ADMIN = 'Basic ' + Buffer.from('admin:admin').toString('base64');
const basic = (login: string, password: string) => 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');

/** The accounts the fuzzer sends as (and may damage), with what they must be. */
export const ACCOUNTS = {
  member: { id: 'fuzz-member', password: 'member-secret', roles: ['Member'] },
  manager: { id: 'fuzz-manager', password: 'manager-secret', roles: ['Manager'] },
  victim: { id: 'fuzz-victim', password: 'victim-secret', roles: ['Member'] },
} as const;

export const GROUP = 'fuzz-group';

/** The fixture tree, parents first: site path → the POST that makes it in its parent. */
export const FIXTURES: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ['/folder', { '@type': 'Folder', title: 'Folder' }],
  ['/folder/doc', { '@type': 'Document', title: 'Doc', text: { 'content-type': 'text/html', data: '<p>x</p>' } }],
  ['/folder/private-doc', { '@type': 'Document', title: 'Private' }],
  ['/folder/file', { '@type': 'File', title: 'File', file: upload(Buffer.from('hello'), 'a.txt', 'text/plain') }],
  ['/folder/image', { '@type': 'Image', title: 'Image', image: upload(png(8, 8), 'a.png', 'image/png') }],
  ['/folder/sub', { '@type': 'Folder', title: 'Sub' }],
  ['/folder/sub/deep-doc', { '@type': 'Document', title: 'Deep' }],
  ['/news', { '@type': 'News Item', title: 'News', image: upload(GIF, 'n.gif', 'image/gif') }],
  ['/event', { '@type': 'Event', title: 'Event', start: '2030-01-01T10:00:00', end: '2030-01-01T12:00:00' }],
  ['/link', { '@type': 'Link', title: 'Link', remoteUrl: 'https://example.org/' }],
  [
    '/collection',
    {
      '@type': 'Collection',
      title: 'Collection',
      query: [{ i: 'portal_type', o: 'cms.app.querystring.operation.selection.any', v: ['Document'] }],
    },
  ],
];
/** Published after creation, so anonymous callers see something. */
const PUBLISHED = ['/folder', '/folder/doc', '/folder/sub', '/news', '/event', '/link', '/collection'];

export interface JsonAnswer {
  status: number;
  body: any;
}

export class FuzzSuite {
  private token = '';

  private constructor(
    readonly process: NodeProcess,
    readonly port: number,
    readonly dataDir: string,
  ) {}

  static async start(env: NodeJS.ProcessEnv = {}): Promise<FuzzSuite> {
    const script = join(ROOT, 'services/embedded/dist/main.js');
    assertFilesExist([script], 'Build first: `node scripts/ensure.mjs` (npm run test:fuzz does).');
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'cms-fuzz-'));
    const child = startNode('embedded', script, {
      ...baseEnv(),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.FUZZ_LOG_LEVEL ?? 'error',
      // The fuzzer logs in with wrong passwords on purpose; throttling would lock out the callers it sends as.
      LOGIN_FAILURES_BEFORE_DELAY: '1000000000',
      LOGIN_FAILURES_BEFORE_LOCK: '1000000000',
      LOGIN_CLIENT_FAILURES_BEFORE_LOCK: '1000000000',
      LOGIN_DELAY_MS: '0',
      // Connections between the services rotate every couple of seconds (30 s by default), so requests meet a
      // server's GOAWAY as they would over a long life: such a call must be sent again, not answered 503.
      GRPC_MAX_CONNECTION_AGE_MS: '2000',
      ...env,
    });
    const suite = new FuzzSuite(child, port, dataDir);
    try {
      await pollUntil(
        async () => {
          if (!child.running) throw new Error(`the suite exited\n${child.describe()}`);
          return (await fetch(suite.url('/readyz')).catch(() => undefined))?.status === 200;
        },
        60_000,
        { intervalMs: 100, description: 'the embedded suite to be ready' },
      );
      await suite.heal();
    } catch (error) {
      await suite.stop();
      throw error;
    }
    return suite;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The Authorization header of each caller (the token one is refreshed by `heal`). */
  authorizationOf = (caller: Caller): string | undefined => {
    switch (caller) {
      case 'member':
        return basic(ACCOUNTS.member.id, ACCOUNTS.member.password);
      case 'manager':
        return basic(ACCOUNTS.manager.id, ACCOUNTS.manager.password);
      case 'token':
        return `Bearer ${this.token}`;
      default:
        return undefined;
    }
  };

  /** A JSON request as the administrator (or as `authorization`). */
  async call(method: string, path: string, body?: unknown, authorization: string | null = ADMIN): Promise<JsonAnswer> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (authorization) headers.Authorization = authorization;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(this.url(path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: kept as text
    }
    return { status: response.status, body: parsed };
  }

  private async must(method: string, path: string, body?: unknown, authorization?: string): Promise<JsonAnswer> {
    const answer = await this.call(method, path, body, authorization);
    if (answer.status >= 300) {
      throw new Error(`fuzz set-up: ${method} ${path} answered ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    return answer;
  }

  /**
   * Puts back what the fuzzer may have broken: the accounts it sends as (able to log in, in their groups only,
   * with their roles only), the member's token, the fixture tree and the member's local role in it. Returns
   * what had to be done.
   */
  async heal(): Promise<string[]> {
    const healed: string[] = [];
    for (const account of Object.values(ACCOUNTS)) {
      if (await this.healAccount(account)) healed.push(`account ${account.id}`);
    }
    const member = `/@users/${ACCOUNTS.member.id}`;
    if (!this.token || (await this.call('GET', member, undefined, `Bearer ${this.token}`)).status !== 200) {
      const login = await this.must(
        'POST',
        '/@login',
        { login: ACCOUNTS.member.id, password: ACCOUNTS.member.password },
        undefined,
      );
      this.token = login.body.token;
      healed.push('token');
    }
    if ((await this.call('GET', `/@groups/${GROUP}`)).status === 404) {
      await this.must('POST', '/@groups', { groupname: GROUP, title: 'Fuzz group', users: [ACCOUNTS.victim.id] });
      healed.push(`group ${GROUP}`);
    }
    for (const [path, body] of FIXTURES) {
      const found = await this.call('GET', path);
      if (found.status === 200 && found.body?.['@type'] === body['@type']) continue;
      // Something else took the fixture's place (the fuzzer may create an item of that id): it goes first.
      if (found.status === 200) await this.must('DELETE', path);
      const parent = path.slice(0, path.lastIndexOf('/')) || '/';
      const id = path.slice(path.lastIndexOf('/') + 1);
      await this.must('POST', parent, { ...body, id });
      if (PUBLISHED.includes(path)) await this.call('POST', `${path}/@workflow/publish`, {});
      healed.push(`fixture ${path}`);
    }
    const sharing = await this.call('GET', '/folder/sub/@sharing');
    const entry = (sharing.body?.entries ?? []).find((e: { id: string }) => e.id === ACCOUNTS.member.id);
    if (!entry?.roles?.Editor) {
      await this.must('POST', '/folder/sub/@sharing', {
        entries: [{ id: ACCOUNTS.member.id, type: 'user', roles: { Editor: true } }],
      });
      healed.push('local role');
    }
    return healed;
  }

  /** One account as the fuzzer needs it: its password, its groups, its roles. True when anything was changed. */
  private async healAccount(account: (typeof ACCOUNTS)[keyof typeof ACCOUNTS]): Promise<boolean> {
    const path = `/@users/${account.id}`;
    const expectedGroups: string[] = account.id === ACCOUNTS.victim.id ? [GROUP] : [];
    const view = await this.call('GET', path);
    if (view.status === 404) {
      await this.must('POST', '/@users', {
        username: account.id,
        password: account.password,
        roles: [...account.roles],
      });
      for (const group of expectedGroups)
        await this.call('PATCH', `/@groups/${group}`, { users: { [account.id]: true } });
      return true;
    }
    let changed = false;
    const groups: string[] = (view.body?.groups?.items ?? []).map((g: { id: string }) => g.id);
    for (const group of groups) {
      if (group === 'AuthenticatedUsers' || expectedGroups.includes(group)) continue;
      await this.must('PATCH', `/@groups/${encodeURIComponent(group)}`, { users: { [account.id]: false } });
      changed = true;
    }
    for (const group of expectedGroups.filter((g) => !groups.includes(g))) {
      // A group that is gone is made again, with its member, by `heal`.
      if ((await this.call('PATCH', `/@groups/${group}`, { users: { [account.id]: true } })).status < 300)
        changed = true;
    }
    const self = await this.call('GET', path, undefined, basic(account.id, account.password));
    const roles: string[] = (changed ? (await this.call('GET', path)).body : view.body)?.roles ?? [];
    const rolesRight = roles.length === account.roles.length && account.roles.every((role) => roles.includes(role));
    if (self.status !== 200 || !rolesRight) {
      const toggles = Object.fromEntries([
        ...roles.map((role) => [role, false] as const),
        ...account.roles.map((role) => [role, true] as const),
      ]);
      await this.must('PATCH', path, { password: account.password, roles: toggles });
      changed = true;
    }
    return changed;
  }

  /** Both readiness checks, answered: the gateway is up and every service says SERVING. */
  async alive(): Promise<string | undefined> {
    if (!this.process.running) return `the suite process exited\n${this.process.describe()}`;
    const health = await fetch(this.url('/healthz')).catch((error: Error) => error);
    if (health instanceof Error || health.status !== 200)
      return `GET /healthz: ${health instanceof Error ? health.message : health.status}`;
    const ready = await pollUntil(
      async () => {
        const response = await fetch(this.url('/readyz')).catch(() => undefined);
        return response?.status === 200 ? response : undefined;
      },
      5000,
      { intervalMs: 100, description: 'GET /readyz to answer 200' },
    ).catch((error: Error) => error);
    return ready instanceof Error ? ready.message : undefined;
  }

  /** Lines the suite logged at level error or above (LOG_LEVEL=error: everything it printed that is a log line). */
  errorLines(): string[] {
    return this.process.output.split('\n').filter((line) => /"level":(50|60)/.test(line));
  }

  async stop(): Promise<void> {
    await this.process.stop(15_000);
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
