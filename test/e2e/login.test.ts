/**
 * Token login through the gateway (addendum §5, §7): @login, Bearer tokens,
 * @login-renew, @logout, expiry, throttling of failed logins, and the
 * gateway's credential cache being invalidated on logout, with one gateway
 * process and with two.
 */
import { statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';
import { pollUntil } from '../support/poll';
import { freePort } from '../support/processes';

const basic = (login: string, password: string) => 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');
const bearer = (token: string) => `Bearer ${token}`;

/** Bytes of identity's throttle records on disk (an append-only file: every write makes it longer). */
function attemptsBytes(t: TestSuite): number {
  try {
    return statSync(join(t.dataDir, 'identity', 'login_attempts.db')).size;
  } catch {
    return 0;
  }
}

function claimsOf(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

async function login(t: TestSuite, name = 'admin', password = 'admin', auth: string | null = null): Promise<string> {
  const response = await t.request('POST', '/@login', { body: { login: name, password }, auth });
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(Object.keys(body)).toEqual(['token']);
  return body.token as string;
}

describe('token login (one gateway process)', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('POST /@login answers a signed JWT whose sub is the user id and exp its expiry', async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await t.request('POST', '/@login', { body: { login: 'admin', password: 'admin' }, auth: null });
    const after = Math.ceil(Date.now() / 1000);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const { token } = await response.json();
    const [header] = token.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = claimsOf(token);
    expect(claims).toEqual({
      sub: 'admin',
      fullname: expect.any(String),
      iat: expect.any(Number),
      exp: expect.any(Number),
      jti: expect.any(String),
      // The account's token generation: a password change or a new account of the same id refuses older tokens.
      gen: expect.any(String),
    });
    expect(claims.exp - claims.iat).toBe(12 * 3600);
    // Issued while the request was on its way.
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.iat).toBeLessThanOrEqual(after);
  });

  it('accepts the token as Authorization: Bearer everywhere', async () => {
    const token = await login(t);
    const root = await t.request('GET', '/', { auth: bearer(token) });
    expect(root.status).toBe(200);
    const created = await t.request('POST', '/', {
      auth: bearer(token),
      body: { '@type': 'Document', title: 'Written with a token' },
    });
    expect(created.status).toBe(201);
    expect((await created.json()).creators).toEqual(['admin']);
    const search = await t.request('GET', '/@search?SearchableText=token', { auth: bearer(token) });
    expect(search.status).toBe(200);
  });

  it('refuses wrong credentials with 401, the same for an unknown login', async () => {
    const wrong = await t.request('POST', '/@login', { body: { login: 'admin', password: 'nope' }, auth: null });
    expect(wrong.status).toBe(401);
    const body = await wrong.json();
    expect(body).toEqual({ type: 'Unauthorized', message: expect.any(String) });
    expect(JSON.stringify(body)).not.toContain('nope');
    const unknown = await t.request('POST', '/@login', { body: { login: 'nobody', password: 'x' }, auth: null });
    expect(unknown.status).toBe(401);
    expect((await unknown.json()).message).toBe(body.message);
  });

  it('answers 400 to bad bodies', async () => {
    for (const body of [
      {},
      { login: 'admin' },
      { password: 'admin' },
      { login: 'admin', password: 5 },
      { login: '', password: 'admin' },
      [1],
      '"admin"',
      '{"login": "admin",',
    ]) {
      const response = await t.request('POST', '/@login', { body, auth: null });
      expect(response.status).toBe(400);
      expect((await response.json()).type).toBe('BadRequest');
    }
    const empty = await t.request('POST', '/@login', { auth: null });
    expect(empty.status).toBe(400);
  });

  it('answers 400 to an over-long login name or password, without echoing it and without storing anything', async () => {
    const before = attemptsBytes(t);
    for (const body of [
      { login: 'x'.repeat(60_000), password: 'admin' },
      { login: 'y'.repeat(257), password: 'admin' },
      { login: 'admin', password: 'p'.repeat(1001) },
    ]) {
      const response = await t.request('POST', '/@login', { body, auth: null });
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(text.length).toBeLessThan(500);
      expect(text).not.toMatch(/xxxx|yyyy|pppp/);
      const answer = JSON.parse(text);
      expect(answer).toEqual({
        type: 'BadRequest',
        message: expect.stringMatching(/at most/),
        errors: expect.any(Array),
      });
      expect(answer.errors).toEqual([
        { field: expect.stringMatching(/^(login|password)$/), message: expect.any(String) },
      ]);
    }
    // The finding's 5 MB login name: refused (by the gateway's body limit, or as above), stored nowhere.
    for (let i = 0; i < 3; i++) {
      const response = await t.request('POST', '/@login', {
        body: { login: 'z'.repeat(5 * 1024 * 1024), password: 'admin' },
        auth: null,
      });
      expect([400, 413]).toContain(response.status);
      expect(await response.text()).not.toContain('zzzz');
    }
    expect(attemptsBytes(t) - before).toBe(0);
  });

  it('refuses an over-long login name in Basic credentials with 401, without storing anything', async () => {
    const before = attemptsBytes(t);
    for (let i = 0; i < 3; i++) {
      const response = await t.request('GET', '/', { auth: basic(`${i}`.repeat(10_000), 'guess') });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
      expect(await response.text()).not.toContain('0000');
    }
    expect(attemptsBytes(t) - before).toBe(0);
  });

  it('ignores any Authorization header on POST /@login (a stale token must not block a new login)', async () => {
    const stale = await login(t);
    expect((await t.request('POST', '/@logout', { auth: bearer(stale) })).status).toBe(204);
    for (const auth of [bearer(stale), bearer('garbage'), basic('admin', 'wrong'), 'Negotiate xyz']) {
      const token = await login(t, 'admin', 'admin', auth);
      expect(claimsOf(token).sub).toBe('admin');
    }
  });

  it('GET /@login lists the external login providers: none', async () => {
    const response = await t.request('GET', '/@login', { auth: null });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ options: [] });
  });

  it('POST /@login-renew gives a new token and revokes the one presented', async () => {
    const first = await login(t);
    expect((await t.request('GET', '/', { auth: bearer(first) })).status).toBe(200);
    const renewed = await t.request('POST', '/@login-renew', { auth: bearer(first) });
    expect(renewed.status).toBe(200);
    const { token: second } = await renewed.json();
    expect(second).not.toBe(first);
    expect(claimsOf(second).sub).toBe('admin');
    expect(claimsOf(second).jti).not.toBe(claimsOf(first).jti);
    for (let i = 0; i < 5; i++) expect((await t.request('GET', '/', { auth: bearer(first) })).status).toBe(401);
    expect((await t.request('POST', '/@login-renew', { auth: bearer(first) })).status).toBe(401);
    expect((await t.request('GET', '/', { auth: bearer(second) })).status).toBe(200);
  });

  it('POST /@login-renew with Basic gives a token; anonymous is 401', async () => {
    const renewed = await t.request('POST', '/@login-renew');
    expect(renewed.status).toBe(200);
    const { token } = await renewed.json();
    expect((await t.request('GET', '/', { auth: bearer(token) })).status).toBe(200);
    expect((await t.request('POST', '/@login-renew', { auth: null })).status).toBe(401);
  });

  it('POST /@logout answers 204 and the token is refused from the very next request on', async () => {
    const token = await login(t);
    // Used a few times first, so the gateway has it in its cache.
    for (let i = 0; i < 3; i++) expect((await t.request('GET', '/', { auth: bearer(token) })).status).toBe(200);
    const other = await login(t);
    const logout = await t.request('POST', '/@logout', { auth: bearer(token) });
    expect(logout.status).toBe(204);
    expect(await logout.text()).toBe('');
    for (let i = 0; i < 5; i++) {
      const refused = await t.request('GET', '/', { auth: bearer(token) });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect((await refused.json()).type).toBe('Unauthorized');
    }
    expect((await t.request('POST', '/@logout', { auth: bearer(token) })).status).toBe(401);
    // Another token of the same user still works.
    expect((await t.request('GET', '/', { auth: bearer(other) })).status).toBe(200);
  });

  it('POST /@logout without a token: 400 with Basic, 401 anonymous', async () => {
    const withBasic = await t.request('POST', '/@logout');
    expect(withBasic.status).toBe(400);
    const anonymous = await t.request('POST', '/@logout', { auth: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBeTruthy();
  });

  it('refuses a forged token with 401 and WWW-Authenticate', async () => {
    const token = await login(t);
    const [header, payload, signature] = token.split('.');
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    const raised = Buffer.from(JSON.stringify({ ...claimsOf(token), sub: 'someone-else' })).toString('base64url');
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    for (const forged of [
      `${header}.${payload}.${flipped}`,
      `${header}.${raised}.${signature}`,
      `${none}.${payload}.`,
    ]) {
      const response = await t.request('GET', '/', { auth: bearer(forged) });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="CMS", error="invalid_token"');
      expect(await response.json()).toEqual({ type: 'Unauthorized', message: expect.any(String) });
    }
  });

  it('builds the principal from the current user: role changes and removal apply to tokens already issued', async () => {
    const created = await t.request('POST', '/@users', { body: { username: 'tokenuser', password: 'token-pass-1' } });
    expect(created.status).toBe(201);
    const token = await login(t, 'tokenuser', 'token-pass-1');
    expect(claimsOf(token).sub).toBe('tokenuser');
    const doc = await t.request('POST', '/', { body: { '@type': 'Document', title: 'Private to token users' } });
    expect(doc.status).toBe(201);
    const path = new URL((await doc.json())['@id']).pathname;
    // Twice each, so that the gateway answers from its cache the second time.
    for (let i = 0; i < 2; i++) expect((await t.request('GET', path, { auth: bearer(token) })).status).not.toBe(200);
    const granted = await t.request('PATCH', '/@users/tokenuser', { body: { roles: { Manager: true } } });
    expect(granted.status).toBe(204);
    for (let i = 0; i < 2; i++) expect((await t.request('GET', path, { auth: bearer(token) })).status).toBe(200);
    expect((await t.request('DELETE', '/@users/tokenuser')).status).toBe(204);
    const refused = await t.request('GET', path, { auth: bearer(token) });
    expect(refused.status).toBe(401);
  });

  it('refuses the tokens issued before a password change; a login with the new password works', async () => {
    expect((await t.request('POST', '/@users', { body: { username: 'pwuser', password: 'pw-old-1' } })).status).toBe(
      201,
    );
    const token = await login(t, 'pwuser', 'pw-old-1');
    const other = await login(t, 'pwuser', 'pw-old-1');
    // Twice, so that the gateway answers from its cache the second time.
    for (let i = 0; i < 2; i++) expect((await t.request('GET', '/', { auth: bearer(token) })).status).toBe(200);
    const changed = await t.request('PATCH', '/@users/pwuser', {
      auth: bearer(token),
      body: { password: 'pw-new-2', old_password: 'pw-old-1' },
    });
    expect(changed.status).toBe(204);
    for (const old of [token, other]) {
      const refused = await t.request('GET', '/', { auth: bearer(old) });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect((await t.request('POST', '/@login-renew', { auth: bearer(old) })).status).toBe(401);
    }
    expect((await t.request('POST', '/@login', { body: { login: 'pwuser', password: 'pw-old-1' } })).status).toBe(401);
    const fresh = await login(t, 'pwuser', 'pw-new-2');
    expect((await t.request('GET', '/@users/pwuser', { auth: bearer(fresh) })).status).toBe(200);
    // A Manager setting the password ends the user's sessions too.
    expect((await t.request('PATCH', '/@users/pwuser', { body: { password: 'pw-reset-3' } })).status).toBe(204);
    expect((await t.request('GET', '/@users/pwuser', { auth: bearer(fresh) })).status).toBe(401);
    // Other changes to the account leave its tokens alone.
    const kept = await login(t, 'pwuser', 'pw-reset-3');
    expect((await t.request('PATCH', '/@users/pwuser', { body: { fullname: 'P. W. User' } })).status).toBe(204);
    expect((await t.request('GET', '/@users/pwuser', { auth: bearer(kept) })).status).toBe(200);
  });

  it('refuses the token of a removed user after an account with the same id is created', async () => {
    expect((await t.request('POST', '/@users', { body: { username: 'phoenix', password: 'first-life' } })).status).toBe(
      201,
    );
    const token = await login(t, 'phoenix', 'first-life');
    expect((await t.request('GET', '/@users/phoenix', { auth: bearer(token) })).status).toBe(200);
    expect((await t.request('DELETE', '/@users/phoenix')).status).toBe(204);
    expect((await t.request('GET', '/', { auth: bearer(token) })).status).toBe(401);
    const again = await t.request('POST', '/@users', {
      body: { username: 'phoenix', password: 'second-life', roles: ['Manager'] },
    });
    expect(again.status).toBe(201);
    for (let i = 0; i < 2; i++) expect((await t.request('GET', '/', { auth: bearer(token) })).status).toBe(401);
    expect((await t.request('GET', '/@users/phoenix', { auth: bearer(token) })).status).toBe(401);
    const fresh = await login(t, 'phoenix', 'second-life');
    expect((await t.request('GET', '/@users/phoenix', { auth: bearer(fresh) })).status).toBe(200);
  });
});

describe('token expiry', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite({ TOKEN_TTL_SECONDS: '2' });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('refuses a token after its expiry, even one the gateway has cached', async () => {
    const token = await login(t);
    const { exp } = claimsOf(token);
    for (let i = 0; i < 3; i++) expect((await t.request('GET', '/', { auth: bearer(token) })).status).toBe(200);
    await sleep(Math.max(0, exp * 1000 - Date.now()) + 50);
    const refused = await t.request('GET', '/', { auth: bearer(token) });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect((await t.request('POST', '/@login-renew', { auth: bearer(token) })).status).toBe(401);
  });
});

/**
 * Throttling through the gateway, by behaviour: which attempts are refused and
 * how. The delays themselves (which attempt waits how long) are asked of an
 * injected sleep and checked without a clock in services/identity/test
 * (throttle.test.ts, authenticator.test.ts, service-start.test.ts); here they
 * are kept tiny so that nothing depends on how fast the machine is.
 */
describe('throttling of failed logins', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite({
      LOGIN_FAILURES_BEFORE_DELAY: '2',
      LOGIN_FAILURES_BEFORE_LOCK: '5',
      // Long enough that a slow machine still asks within the lock, short enough to wait for its end.
      LOGIN_LOCK_SECONDS: '3',
      LOGIN_DELAY_MS: '1',
      LOGIN_DELAY_MAX_MS: '2',
    });
  });
  afterAll(async () => {
    await t.stop();
  });

  const attempt = async (name: string, password: string) => {
    const response = await t.request('POST', '/@login', { body: { login: name, password }, auth: null });
    await response.arrayBuffer();
    return response;
  };
  const statuses = async (name: string, passwords: string[]) => {
    const answered = [];
    for (const password of passwords) answered.push((await attempt(name, password)).status);
    return answered;
  };

  it('refuses failures with 401, then locks with 429 and Retry-After, and the lock ends by itself', async () => {
    expect(await statuses('admin', ['guess-0', 'guess-1', 'guess-2', 'guess-3', 'guess-4'])).toEqual([
      401, 401, 401, 401, 401,
    ]);

    // Locked: even the right password is refused, through @login and through Basic.
    const locked = await attempt('admin', 'admin');
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toMatch(/^[1-3]$/);
    const viaBasic = await t.request('GET', '/', { auth: basic('admin', 'admin') });
    expect(viaBasic.status).toBe(429);
    expect(viaBasic.headers.get('retry-after')).toMatch(/^[1-3]$/);
    expect((await viaBasic.json()).type).toBe('TooManyRequests');

    // Refused attempts do not extend the lock, so asking again and again ends with the lock.
    await pollUntil(async () => (await attempt('admin', 'admin')).status === 200, 10_000, {
      intervalMs: 100,
      description: 'the lock of "admin" to end',
    });
  });

  it('resets the count on a success', async () => {
    // Four failures, then a success: without the reset the fifth failure below would lock the name.
    expect(await statuses('admin', ['wrong', 'wrong', 'wrong', 'wrong', 'admin'])).toEqual([401, 401, 401, 401, 200]);
    expect(await statuses('admin', ['wrong', 'wrong', 'wrong', 'wrong', 'admin'])).toEqual([401, 401, 401, 401, 200]);
  });

  it('counts a login name with "@" in any case as one, as authentication finds the account', async () => {
    const created = await t.request('POST', '/@users', {
      body: { username: 'carol@example.org', password: 'carols-secret' },
    });
    expect(created.status).toBe(201);
    const variants = [
      'carol@example.org',
      'Carol@example.org',
      'CAROL@EXAMPLE.ORG',
      'carol@Example.Org',
      'cArOl@example.org',
    ];
    for (const name of variants) expect((await attempt(name, 'guess')).status).toBe(401);
    // The lock holds whatever the case: changing it is not a way out.
    for (const name of variants) expect((await attempt(name, 'carols-secret')).status).toBe(429);
    expect((await t.request('GET', '/', { auth: basic('Carol@Example.org', 'carols-secret') })).status).toBe(429);
  });

  it('counts Basic and @login failures together per login name', async () => {
    for (let i = 0; i < 5; i++) {
      const response = await t.request('GET', '/', { auth: basic('mallory', `guess-${i}`) });
      expect(response.status).toBe(401);
    }
    const locked = await attempt('mallory', 'anything');
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toMatch(/^[1-3]$/);
    // Other login names are not affected.
    expect((await attempt('admin', 'admin')).status).toBe(200);
  });
});

/** One request on a new connection, so that the cluster hands it to the next worker in turn. */
function freshRequest(port: number, method: string, path: string, authorization?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: {
          Accept: 'application/json',
          Connection: 'close',
          ...(authorization ? { Authorization: authorization } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('logout with two gateway processes', () => {
  let t: TestSuite;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    t = await startTestSuite({ GATEWAY_WORKERS: '2', PORT: String(port) });
    // The workers start on their own: wait until several requests in a row (both workers) are answered.
    let inARow = 0;
    await pollUntil(
      async () => {
        const status = await freshRequest(port, 'GET', '/readyz').catch(() => 0);
        inARow = status === 200 ? inARow + 1 : 0;
        return inARow >= 6;
      },
      20_000,
      { intervalMs: 20, description: 'six /readyz answers in a row from the gateway workers' },
    );
  }, 60_000);
  afterAll(async () => {
    await t.stop();
  });

  it('a token logged out through one worker is refused by the very next requests on every worker', async () => {
    for (let round = 0; round < 3; round++) {
      const token = await login(t);
      // Cached by both workers first.
      for (let i = 0; i < 6; i++) expect(await freshRequest(port, 'GET', '/', bearer(token))).toBe(200);
      expect(await freshRequest(port, 'POST', '/@logout', bearer(token))).toBe(204);
      const after = [];
      for (let i = 0; i < 10; i++) after.push(await freshRequest(port, 'GET', '/', bearer(token)));
      expect(after).toEqual(Array(10).fill(401));
      // And over a kept-alive connection too.
      expect((await t.request('GET', '/', { auth: bearer(token) })).status).toBe(401);
    }
  });

  it('a renewed token is refused by every worker at once', async () => {
    const token = await login(t);
    for (let i = 0; i < 6; i++) expect(await freshRequest(port, 'GET', '/', bearer(token))).toBe(200);
    const renewed = await t.request('POST', '/@login-renew', { auth: bearer(token) });
    expect(renewed.status).toBe(200);
    const { token: next } = await renewed.json();
    const after = [];
    for (let i = 0; i < 10; i++) after.push(await freshRequest(port, 'GET', '/', bearer(token)));
    expect(after).toEqual(Array(10).fill(401));
    for (let i = 0; i < 4; i++) expect(await freshRequest(port, 'GET', '/', bearer(next))).toBe(200);
  });
});
