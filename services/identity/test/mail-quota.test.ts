/** The mail quota of `@email-send` and `@email-notification`, on an embedded store, with a fake clock. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError, type DocumentStore } from '@cms/shared';
import { openEmbeddedStore } from '@cms/shared/adapters';
import { MailQuota } from '../src/domain/mail-quota';

const SETTINGS = { perPrincipal: 3, perClient: 2, windowSeconds: 60 };

describe('MailQuota', () => {
  let dataDir: string;
  let store: DocumentStore;
  let now: number;
  let quota: MailQuota;

  /** The refusal of `take`, or undefined when it was let through. */
  const refusal = (principal: string | null, client?: string) =>
    quota.take(principal, client).then(
      () => undefined,
      (error: unknown) => error as AppError,
    );

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mail-quota-'));
    store = await openEmbeddedStore(dataDir);
    now = 1_000_000;
    quota = new MailQuota(store, SETTINGS, { now: () => now });
    await quota.ensureIndexes();
  });
  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a client past its mails in the window, with the seconds left as Retry-After', async () => {
    expect(await refusal(null, '198.51.100.1')).toBeUndefined();
    now += 20_000;
    expect(await refusal(null, '198.51.100.1')).toBeUndefined();
    const refused = await refusal(null, '198.51.100.1');
    expect(refused?.type).toBe('TooManyRequests');
    // The window began at the first mail, 20 s ago: 40 s are left.
    expect(refused?.headers).toEqual({ 'Retry-After': '40' });
    expect(await refusal(null, '198.51.100.2')).toBeUndefined();
  });

  it('starts a new window once the last one is over', async () => {
    for (let i = 0; i < 2; i++) await quota.take(null, '198.51.100.1');
    expect(await refusal(null, '198.51.100.1')).toBeDefined();
    now += 60_001;
    expect(await refusal(null, '198.51.100.1')).toBeUndefined();
  });

  it('counts a principal over every address, and one IPv6 /64 as one client', async () => {
    await quota.take('jane', '2001:db8::1');
    await quota.take('jane', '2001:db8::2');
    // The /64's two mails are used up, whoever sends.
    expect((await refusal('joe', '2001:db8::3'))?.type).toBe('TooManyRequests');
    await quota.take('jane', '192.0.2.1');
    expect((await refusal('jane', '192.0.2.2'))?.type).toBe('TooManyRequests');
  });

  it('a refusal by one count takes nothing from the other; a released mail is given back', async () => {
    await quota.take(null, '192.0.2.1');
    await quota.take(null, '192.0.2.1');
    // The client's count refuses: the principal's place taken first is given back.
    expect(await refusal('jane', '192.0.2.1')).toBeDefined();
    for (let i = 0; i < 3; i++) await quota.take('jane', `192.0.2.${10 + i}`);
    expect(await refusal('jane', '192.0.2.20')).toBeDefined();

    const ticket = await quota.take(null, '192.0.2.30');
    await quota.take(null, '192.0.2.30');
    await ticket.release();
    expect(await refusal(null, '192.0.2.30')).toBeUndefined();
  });

  it('counts callers without a known address together', async () => {
    await quota.take(null, undefined);
    await quota.take(null, undefined);
    expect(await refusal(null, undefined)).toBeDefined();
  });
});
