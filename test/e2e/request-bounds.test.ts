import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';
import { pollUntil } from '../support/poll';

const KiB = 1024;
const MiB = 1024 * KiB;
const MEMBER = 'Basic ' + Buffer.from('mia:secret-mia').toString('base64');
const EDITOR = 'Basic ' + Buffer.from('ed:secret-ed').toString('base64');

/** `{"k0":0,"k1":1,…}` with `members` members. */
const wideObject = (members: number, from = 0) =>
  '{' + Array.from({ length: members }, (_, i) => `"k${from + i}":${i}`).join(',') + '}';

/** A Volto page of `count` blocks: slate paragraphs with marks and a list, a table, the layout listing them all. */
function voltoPage(count: number): Record<string, unknown> {
  const blocks: Record<string, unknown> = {};
  const items: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
    items.push(id);
    blocks[id] =
      i % 20 === 19
        ? {
            '@type': 'slateTable',
            table: {
              rows: Array.from({ length: 20 }, (_, r) => ({
                key: `r${r}`,
                cells: Array.from({ length: 6 }, (_, c) => ({
                  key: `c${c}`,
                  type: r === 0 ? 'header' : 'data',
                  value: [{ type: 'p', children: [{ text: `cell ${r}.${c}` }] }],
                })),
              })),
            },
          }
        : {
            '@type': 'slate',
            plaintext: `Paragraph ${i}`,
            value: [
              { type: 'h2', children: [{ text: `Heading ${i}` }] },
              {
                type: 'p',
                children: [{ text: 'Some ' }, { type: 'strong', children: [{ text: 'bold' }] }, { text: ' text.' }],
              },
              {
                type: 'ul',
                children: Array.from({ length: 5 }, (_, n) => ({ type: 'li', children: [{ text: `item ${n}` }] })),
              },
            ],
          };
  }
  return { blocks, blocks_layout: { items } };
}

interface Answer {
  status: number;
  body: string;
}

/**
 * A request whose body the test sends in parts: `answer` settles when the gateway answers, which may be before
 * the body is all sent.
 */
function openRequest(port: number, method: string, path: string, headers: Record<string, string | number>) {
  const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false });
  req.on('error', () => {});
  const continued = new Promise<void>((resolve) => req.on('continue', resolve));
  const answer = new Promise<Answer>((resolve) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
  });
  req.flushHeaders();
  return { req, answer, continued };
}

/**
 * No request may hold the process (issue 25, item 2): a body's JSON shape, its inflated size and its share of the
 * bytes in flight are bounded while it arrives, at the gateway, before any service parses or validates it.
 */
describe('request bodies are bounded before they are parsed', () => {
  let t: TestSuite;
  let port: number;
  const json = async (response: Response) => (await response.json()) as Record<string, any>;

  // Bodies of megabytes through a suite in this process: on a starved machine a test takes longer, never fails.
  jest.setTimeout(120_000);

  beforeAll(async () => {
    t = await startTestSuite({
      MAX_BODY_BYTES: String(8 * MiB),
      MAX_BODY_BYTES_IN_FLIGHT: String(16 * MiB),
      // What is asserted is that answers come, not how fast: a starved test machine must not turn them into 504.
      CALL_TIMEOUT_MS: '60000',
    });
    port = Number(new URL(t.url('/')).port);
    const created = await t.request('POST', '/', { body: { '@type': 'Document', id: 'doc', title: 'Doc' } });
    expect(created.status).toBe(201);
    expect((await t.request('POST', '/doc/@workflow/publish')).status).toBe(200);
    for (const [username, roles] of [
      ['mia', ['Member']],
      ['ed', ['Editor']],
    ] as const) {
      const user = await t.request('POST', '/@users', { body: { username, password: `secret-${username}`, roles } });
      expect(user.status).toBe(201);
    }
  });
  afterAll(async () => {
    await t.stop();
  });

  async function expectRefused(response: Response, status: number, type: string, message: RegExp): Promise<void> {
    expect(response.status).toBe(status);
    const body = await json(response);
    expect(body).toMatchObject({ type, message: expect.stringMatching(message) });
    expect(JSON.stringify(body).length).toBeLessThan(1000);
  }

  async function expectDocUnchanged(): Promise<void> {
    const doc = await json(await t.request('GET', '/doc', { auth: null }));
    expect(doc.title).toBe('Doc');
  }

  it('the blocks of a large Volto page pass (2,000 blocks, 100 tables: about 210,000 members)', async () => {
    const page = voltoPage(2000);
    const response = await t.request('PATCH', '/doc', { body: page, headers: { Prefer: 'return=minimal' } });
    expect([response.status, response.status < 300 ? '' : await response.text()]).toEqual([204, '']);
    const doc = await json(await t.request('GET', '/doc'));
    expect(Object.keys(doc.blocks)).toHaveLength(2000);
    expect(doc.blocks_layout.items).toEqual((page.blocks_layout as { items: string[] }).items);
  });

  it("a Member's object of 500,000 members (the finding: 5.9 MB froze every service) is 413, on their user and on a document", async () => {
    const body = wideObject(500_000);
    await expectRefused(
      await t.request('PATCH', '/@users/mia', { body, auth: MEMBER }),
      413,
      'PayloadTooLarge',
      /object of more than 4000 members/,
    );
    await expectRefused(
      await t.request('PATCH', '/doc', { body, auth: EDITOR }),
      413,
      'PayloadTooLarge',
      /object of more than 4000 members/,
    );
    await expectDocUnchanged();
  });

  it('a long array, many members in all, a long member name and deep nesting are refused and change nothing', async () => {
    const subjects = Array.from({ length: 20_001 }, (_, i) => `s${i}`);
    await expectRefused(
      await t.request('PATCH', '/doc', { body: { subjects }, auth: EDITOR }),
      413,
      'PayloadTooLarge',
      /array of more than 20000 elements/,
    );
    const many = `{"blocks":{${Array.from({ length: 80 }, (_, i) => `"b${i}":${wideObject(3900, i * 3900)}`).join(',')}}}`;
    await expectRefused(
      await t.request('PATCH', '/doc', { body: many, auth: EDITOR }),
      413,
      'PayloadTooLarge',
      /more than 300000 members and elements in all/,
    );
    await expectRefused(
      await t.request('PATCH', '/doc', { body: { ['k'.repeat(1025)]: 1 }, auth: EDITOR }),
      413,
      'PayloadTooLarge',
      /member name of more than 1024 bytes/,
    );
    const deep = `{"title":"Deep",${'"a":{'.repeat(100)}"b":1${'}'.repeat(100)}}`;
    await expectRefused(
      await t.request('PATCH', '/doc', { body: deep, auth: EDITOR }),
      400,
      'BadRequest',
      /nested deeper than 100 levels/,
    );
    await expectDocUnchanged();
  });

  it('a wide object is refused while it is still being sent, and an anonymous GET meanwhile is answered', async () => {
    // The first 20,000 members of 500,000, and no more for now: the gateway answers before the rest comes.
    const body = Buffer.from(wideObject(500_000));
    const wide = openRequest(port, 'PATCH', '/@users/mia', {
      Authorization: MEMBER,
      'Content-Type': 'application/json',
      'Content-Length': body.length,
    });
    wide.req.write(body.subarray(0, 20_000 * 12));
    const refusal = await wide.answer;
    expect(refusal.status).toBe(413);
    expect(JSON.parse(refusal.body)).toMatchObject({ type: 'PayloadTooLarge' });

    const read = await t.request('GET', '/doc', { auth: null });
    expect(read.status).toBe(200);
    expect((await json(read)).title).toBe('Doc');
    // The rest of the refused body is read and dropped; the connection is still whole.
    wide.req.end(body.subarray(20_000 * 12));
    wide.req.destroy();
  });

  it('anonymous GETs sent with four such bodies are all answered', async () => {
    const body = wideObject(500_000);
    const wide = Array.from({ length: 4 }, () => t.request('PATCH', '/doc', { body, auth: EDITOR }));
    const reads = Array.from({ length: 8 }, () => t.request('GET', '/doc', { auth: null }));
    for (const read of await Promise.all(reads)) expect(read.status).toBe(200);
    for (const refusal of await Promise.all(wide)) expect(refusal.status).toBe(413);
    await expectDocUnchanged();
  });

  it('gzip bombs are 413 once their inflated bytes pass the limit, and hold nothing after', async () => {
    // 128 MiB of spaces (16 times the limit) in about 128 KiB; the finding: eight 30 KB bodies took a process
    // from 412 MB to 1.02 GB.
    const bomb = gzipSync(Buffer.alloc(128 * MiB, 0x20), { level: 9 });
    expect(bomb.length).toBeLessThan(256 * KiB);
    const send = () =>
      fetch(t.url('/doc'), {
        method: 'PATCH',
        headers: { Authorization: EDITOR, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        body: bomb,
      });
    const answers = await Promise.all(Array.from({ length: 8 }, send));
    // Each is refused as too large, or, while the editor's share is taken by the others' inflated bytes, as busy.
    for (const answer of answers) expect([413, 503]).toContain(answer.status);
    expect(answers.some((answer) => answer.status === 413)).toBe(true);
    const metrics = await pollUntil(
      async () => {
        const text = await (await fetch(t.url('/metrics'))).text();
        return /^cms_gateway_request_body_bytes_held 0$/m.test(text) && text;
      },
      5000,
      { description: "the bombs' bytes to be given back" },
    );
    expect(metrics).toMatch(/^cms_gateway_request_bodies_refused_total\{reason="inflated-too-large"\} [1-9]/m);
    await expectDocUnchanged();

    // An ordinary compressed body passes; an encoding the gateway does not inflate is 415.
    const patched = await fetch(t.url('/doc'), {
      method: 'PATCH',
      headers: { Authorization: EDITOR, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ description: 'zipped' })),
    });
    expect(patched.status).toBeLessThan(300);
    expect((await json(await t.request('GET', '/doc'))).description).toBe('zipped');
    const unknown = await t.request('PATCH', '/doc', {
      body: { description: 'x' },
      auth: EDITOR,
      headers: { 'Content-Encoding': 'compress' },
    });
    await expectRefused(unknown, 415, 'UnsupportedMediaType', /Content-Encoding/);
  });

  it("slow senders hold only the bytes they sent, at most their share: another caller's large body is taken", async () => {
    // Two bodies of 7.5 MiB declared (15 of the 16 MiB in flight), 3.5 MiB of each sent: before, they reserved
    // what they declared and every body over 64 KiB from anyone was 503 until they gave up.
    const slow = [0, 1].map(() =>
      openRequest(port, 'PATCH', '/@users/mia', {
        Authorization: MEMBER,
        'Content-Type': 'application/json',
        'Content-Length': 7.5 * MiB,
        Expect: '100-continue',
      }),
    );
    await Promise.all(slow.map(({ continued }) => continued));
    for (const { req } of slow) req.write(Buffer.alloc(3.5 * MiB, 0x20));
    await pollUntil(
      async () => {
        const text = await (await fetch(t.url('/metrics'))).text();
        return /^cms_gateway_request_body_bytes_held 7340032$/m.test(text);
      },
      10_000,
      { description: 'the slow bytes to arrive' },
    );
    const text = { 'content-type': 'text/html', encoding: 'utf-8', data: `<p>${'d'.repeat(1.5 * MiB)}</p>` };
    const large = await t.request('PATCH', '/doc', { body: { text }, auth: EDITOR });
    expect([large.status, large.status < 300 ? '' : await large.text()]).toEqual([204, '']);
    // The slow caller itself holds at most its share (half the bytes in flight): a third large body is 503.
    const third = openRequest(port, 'PATCH', '/@users/mia', {
      Authorization: MEMBER,
      'Content-Type': 'application/json',
      'Content-Length': 7.5 * MiB,
    });
    const busy = await third.answer;
    expect(busy.status).toBe(503);
    expect(JSON.parse(busy.body)).toMatchObject({ type: 'ServiceUnavailable' });
    third.req.destroy();
    for (const { req } of slow) req.destroy();
  });
});
