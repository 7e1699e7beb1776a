/**
 * Login throttling per client address through the gateway: the address is
 * the socket's peer, or behind a trusted proxy (TRUST_PROXY) the address it
 * saw, from X-Forwarded-For. Clients are told apart here by X-Forwarded-For
 * behind one trusted proxy, as every request comes from the loopback address.
 */
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

const basic = (login: string, password: string) => 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');

const THROTTLE = {
  LOGIN_FAILURES_BEFORE_DELAY: '100',
  LOGIN_FAILURES_BEFORE_LOCK: '5',
  LOGIN_CLIENT_FAILURES_BEFORE_LOCK: '8',
  LOGIN_LOCK_SECONDS: '300',
};

async function statusOf(response: Promise<Response>): Promise<number> {
  const answered = await response;
  await answered.arrayBuffer();
  return answered.status;
}

describe('login throttling per client, behind a trusted proxy', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite({ ...THROTTLE, TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await t.stop();
  });

  const from = (client: string) => ({ 'X-Forwarded-For': client });
  const login = (client: string, name: string, password: string) =>
    statusOf(t.request('POST', '/@login', { body: { login: name, password }, auth: null, headers: from(client) }));
  const viaBasic = (client: string, name: string, password: string) =>
    statusOf(t.request('GET', '/', { auth: basic(name, password), headers: from(client) }));

  it('locks a client that sprays guesses over many login names, whatever it tries next; not the others', async () => {
    const sprayer = '203.0.113.7';
    for (let i = 0; i < 4; i++) expect(await login(sprayer, `user-${i}`, 'guess')).toBe(401);
    for (let i = 4; i < 8; i++) expect(await viaBasic(sprayer, `user-${i}`, 'guess')).toBe(401);
    const locked = await t.request('POST', '/@login', {
      body: { login: 'admin', password: 'admin' },
      auth: null,
      headers: from(sprayer),
    });
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe('300');
    expect(await locked.json()).toEqual({ type: 'TooManyRequests', message: expect.stringMatching(/address/) });
    expect(await viaBasic(sprayer, 'admin', 'admin')).toBe(429);
    expect(await login('203.0.113.8', 'admin', 'admin')).toBe(200);
  });

  it('does not let an attacker lock the real user out: the account’s lock holds for the clients that failed', async () => {
    const attacker = '198.51.100.1';
    for (let i = 0; i < 5; i++) expect(await login(attacker, 'admin', `guess-${i}`)).toBe(401);
    expect(await login(attacker, 'admin', 'admin')).toBe(429);
    expect(await viaBasic(attacker, 'admin', 'admin')).toBe(429);
    // The administrator, elsewhere, logs in either way.
    expect(await login('192.0.2.10', 'admin', 'admin')).toBe(200);
    expect(await viaBasic('192.0.2.11', 'admin', 'admin')).toBe(200);
    // A client that guesses wrong on the locked account is held from then on.
    expect(await login('192.0.2.12', 'admin', 'guess')).toBe(401);
    expect(await login('192.0.2.12', 'admin', 'admin')).toBe(429);
    expect(await login(attacker, 'admin', 'admin')).toBe(429);
  });
});

describe('login throttling per client, with no trusted proxy', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite(THROTTLE);
  });
  afterAll(async () => {
    await t.stop();
  });

  it('takes the socket’s peer for the client: a new X-Forwarded-For per guess buys no new budget', async () => {
    const login = (client: string, name: string, password: string) =>
      statusOf(
        t.request('POST', '/@login', {
          body: { login: name, password },
          auth: null,
          headers: { 'X-Forwarded-For': client },
        }),
      );
    for (let i = 0; i < 8; i++) expect(await login(`203.0.113.${i}`, `user-${i}`, 'guess')).toBe(401);
    expect(await login('203.0.113.99', 'admin', 'admin')).toBe(429);
  });
});
