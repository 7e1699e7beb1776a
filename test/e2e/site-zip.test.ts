/**
 * `@export` and `@import` (plone.exportimport 2's endpoints): the site as a ZIP of plone.exportimport's layout,
 * streamed out of content and into it over the file hop, for Managers and Site Administrators only. The sample
 * export goes in through `@import`, comes out through `@export`, and that ZIP goes into a fresh site, whose own
 * `@export` must give the sample back (the comparison of the `npm run export` round trip).
 */
import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type * as Yauzl from 'yauzl';
import type * as Yazl from 'yazl';
import { createClient, protos, requestMetadata, type Principal__Output } from '@cms/shared';
import { ADMIN, startTestSuite, type TestSuite } from '../support/embedded-suite';
import { expectSampleWrittenBack, expectSidesWrittenBack, SAMPLE } from '../support/plone-export-compare';
import { ROOT } from '../support/processes';

// The ZIP libraries are content's dependencies.
const fromContent = createRequire(join(ROOT, 'services', 'content', 'package.json'));
const yazl = fromContent('yazl') as typeof Yazl;
const yauzl = fromContent('yauzl') as typeof Yauzl;

const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');

/** A ZIP of these entries (name → bytes). */
function zipOf(entries: [string, Buffer][]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of entries) zip.addBuffer(bytes, name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** The files under `folder`, by their `/`-separated path from it. */
function filesOf(folder: string, under = folder): [string, Buffer][] {
  return readdirSync(under).flatMap((name) => {
    const path = join(under, name);
    return statSync(path).isDirectory()
      ? filesOf(folder, path)
      : [[relative(folder, path).split(sep).join('/'), readFileSync(path)] as [string, Buffer]];
  });
}

/** The entries of a ZIP, read whole (the test's ZIPs are small). */
async function entriesOf(zip: Buffer): Promise<Map<string, Buffer>> {
  const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const entries = new Map<string, Buffer>();
  for (;;) {
    const entry = await new Promise<Yauzl.Entry | null>((resolve, reject) => {
      file
        .once('entry', resolve)
        .once('end', () => resolve(null))
        .once('error', reject);
      file.readEntry();
    });
    file.removeAllListeners();
    if (!entry) return entries;
    const chunks: Buffer[] = [];
    for await (const chunk of await file.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    entries.set(entry.fileName, Buffer.concat(chunks));
  }
}

/** A POST of `body` to `@import`, as it is or in the form field `file` (plone.exportimport's form). */
function postImport(t: TestSuite, body: Buffer, options: { auth?: string | null; form?: boolean; type?: string } = {}) {
  const auth = options.auth === undefined ? ADMIN : options.auth;
  const headers: Record<string, string> = { Accept: 'application/json', ...(auth ? { Authorization: auth } : {}) };
  if (options.form) {
    const form = new FormData();
    form.set('file', new Blob([body], { type: 'application/zip' }), 'plone_export.zip');
    return fetch(t.url('/@import'), { method: 'POST', headers, body: form });
  }
  headers['Content-Type'] = options.type ?? 'application/zip';
  return fetch(t.url('/@import'), { method: 'POST', headers, body });
}

interface ImportAnswer {
  status: string;
  report: string[];
  created: number;
  skipped: number;
  failed: unknown[];
  carried: Record<string, number>;
  not_carried: { what: string; reason: string; count: number }[];
}

describe('@import and @export of the sample Plone export', () => {
  let t: TestSuite;
  let sampleZip: Buffer;
  let exported: Buffer;

  beforeAll(async () => {
    t = await startTestSuite();
    sampleZip = await zipOf(filesOf(SAMPLE));
    for (const [username, roles] of [
      ['member', []],
      ['siteadmin', ['Site Administrator']],
    ] as const) {
      const created = await t.request('POST', '/@users', {
        body: { username, email: `${username}@example.org`, password: 'a-long-password', roles },
      });
      expect(created.status).toBe(201);
    }
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('refuses anonymous callers (401) and members (403), importing nothing', async () => {
    const member = basic('member', 'a-long-password');
    expect((await fetch(t.url('/@export'))).status).toBe(401);
    expect((await fetch(t.url('/@export'), { method: 'POST' })).status).toBe(401);
    expect((await postImport(t, sampleZip, { auth: null })).status).toBe(401);
    const refused = await t.request('GET', '/@export', { auth: member });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ message: expect.stringContaining('plone.exportimport.export') });
    const refusedImport = await postImport(t, sampleZip, { auth: member });
    expect(refusedImport.status).toBe(403);
    expect(await refusedImport.json()).toMatchObject({
      message: expect.stringContaining('plone.exportimport.import'),
    });
    expect((await t.request('GET', '/about')).status).toBe(404);
  });

  it('answers its refusal, not a 503, to a request refused before its body was read', async () => {
    // Content answers these at once; the gateway is still sending the body over the file hop. Found by the fuzz
    // suite: content cut the connection with its answer, and the gateway, its write reset, answered 503.
    const wide = JSON.stringify({ subjects: Array.from({ length: 1_000_000 }, () => null) });
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all([
        t.request('POST', '/folder/sub/@import', { body: { title: 'x'.repeat(200_000) } }),
        t.request('POST', '/nope/deeper/@export', { body: wide }),
        t.request('POST', '/@import?a', {
          auth: null,
          body: 'x',
          headers: { 'Content-Type': 'application/zip' },
        }),
        postImport(t, Buffer.alloc(300_000, 1), { auth: basic('member', 'a-long-password') }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([404, 404, 401, 403]);
    }
    // A client that waits for `100 Continue` before its body, anonymous: the gateway does not ask for the body,
    // and content, shown the request at once, refuses it (it waited for a body that never came, then 503).
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(t.url('/@import'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/zip', 'Content-Length': '8', Expect: '100-continue' },
      });
      req.on('continue', () => req.end(Buffer.alloc(8)));
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(status).toBe(401);
  });

  it('imports the ZIP as `npm run import` imports the folder, and answers its report', async () => {
    const answer = await postImport(t, sampleZip);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as ImportAnswer;
    expect(body).toMatchObject({ status: 'success', created: 11, skipped: 0, failed: [] });
    expect(body.report[0]).toBe('imported 11 objects, 0 were there already, 0 failed');
    expect(body.carried).toMatchObject({
      'relations.json relations': 2,
      'redirects.json redirects': 2,
      'discussions.json comments': 3,
    });
    const team = (await (await t.request('GET', '/about/team')).json()) as Record<string, unknown>;
    expect(team).toMatchObject({ UID: '1b2c3d4e5f60471829a3b4c5d6e7f809', review_state: 'published' });
  });

  it('posted again (in plone.exportimport’s form field), skips what is there: no object or link twice', async () => {
    const answer = await postImport(t, sampleZip, { form: true });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as ImportAnswer;
    expect(body).toMatchObject({ status: 'success', created: 0, skipped: 11, failed: [] });
    expect(body.carried['discussions.json comments']).toBeUndefined();
    expect(body.not_carried).toContainEqual({
      what: 'discussions.json comments',
      reason: 'there already (left as it is)',
      count: 3,
    });
    const related = (await (await t.request('GET', '/@relations?source=/news/launch')).json()) as {
      relations: { relatedItems: { items: unknown[] } };
    };
    expect(related.relations.relatedItems.items).toHaveLength(1);
  });

  it('exports the site as a ZIP, streamed (chunked, no length), to a Site Administrator too', async () => {
    const answer = await fetch(t.url('/@export'), {
      headers: { Authorization: basic('siteadmin', 'a-long-password') },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="plone_export.zip"');
    expect(answer.headers.get('transfer-encoding')).toBe('chunked');
    expect(answer.headers.get('content-length')).toBeNull();
    exported = Buffer.from(await answer.arrayBuffer());
    const entries = await entriesOf(exported);
    expect(entries.has('content/__metadata__.json')).toBe(true);
    expectSampleWrittenBack((path) => entries.get(path) ?? Buffer.alloc(0));
    // This site has one language: the translation link was refused at import, so there is none to write.
    expectSidesWrittenBack((path) => entries.get(path) ?? Buffer.alloc(0), { multilingual: false });
    // plone.exportimport's own `@export` is a POST: it answers the same.
    const posted = await t.request('POST', '/@export');
    expect(posted.status).toBe(200);
    expect(posted.headers.get('content-type')).toBe('application/zip');
    expect([...(await entriesOf(Buffer.from(await posted.arrayBuffer()))).keys()].sort()).toEqual(
      [...entries.keys()].sort(),
    );
  });

  describe('into a fresh site', () => {
    let fresh: TestSuite;
    // Small enough for a refused entry or body, large enough for the sample.
    const UNPACKED_LIMIT = 300_000;
    const ZIP_LIMIT = 200_000;

    beforeAll(async () => {
      fresh = await startTestSuite({
        IMPORT_MAX_UNPACKED_BYTES: String(UNPACKED_LIMIT),
        IMPORT_MAX_ZIP_BYTES: String(ZIP_LIMIT),
      });
    });
    afterAll(async () => {
      await fresh?.stop();
    });

    /** 4xx with a bounded message, and nothing imported. */
    async function expectRefused(answer: Response, status: number, message: RegExp) {
      expect(answer.status).toBe(status);
      const body = (await answer.json()) as { message: string };
      expect(body.message).toMatch(message);
      expect(body.message.length).toBeLessThan(600);
      expect((await fresh.request('GET', '/about')).status).toBe(404);
    }

    it('refuses a body that is not a ZIP (400)', async () => {
      await expectRefused(
        await postImport(fresh, Buffer.from('not a zip at all '.repeat(100))),
        400,
        /Not a readable ZIP/,
      );
      await expectRefused(await postImport(fresh, exported, { type: 'application/json' }), 415, /application\/zip/);
      await expectRefused(await postImport(fresh, Buffer.alloc(0)), 400, /No ZIP was sent/);
    });

    it('refuses a body past the ZIP limit (413), declared or not', async () => {
      const large = Buffer.alloc(ZIP_LIMIT + 1, 1);
      await expectRefused(await postImport(fresh, large), 413, /larger than 200000 bytes/);
      // Chunked, without a length: refused once the bytes received pass the limit.
      const chunked = new ReadableStream({
        start(controller) {
          for (let i = 0; i < 4; i++) controller.enqueue(new Uint8Array(large.subarray(0, ZIP_LIMIT / 2)));
          controller.close();
        },
      });
      const answer = await fetch(fresh.url('/@import'), {
        method: 'POST',
        headers: { Authorization: ADMIN, 'Content-Type': 'application/zip' },
        body: chunked,
        duplex: 'half',
      } as RequestInit);
      await expectRefused(answer, 413, /larger than 200000 bytes/);
    });

    it('answers 408 to a body that stops coming, and 415 to one sent encoded', async () => {
      // Half of the body is sent, then nothing: content answers before the gateway would give up on the hop.
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(fresh.url('/@import'), {
          method: 'POST',
          headers: { Authorization: ADMIN, 'Content-Type': 'application/zip', 'Content-Length': '1000' },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on('error', reject);
        req.write(Buffer.alloc(500));
      });
      expect(status).toBe(408);
      const encoded = await fetch(fresh.url('/@import'), {
        method: 'POST',
        headers: { Authorization: ADMIN, 'Content-Type': 'application/zip', 'Content-Encoding': 'gzip' },
        body: gzipSync(exported),
      });
      await expectRefused(encoded, 415, /without Content-Encoding/);
    });

    it('refuses an entry whose path leaves the folder (zip-slip), before unpacking anything', async () => {
      // yazl will not write `..`: a name of the same length is written and its bytes replaced.
      const safe = await zipOf([...filesOf(SAMPLE), ['zz/evil.txt', Buffer.from('x')]]);
      const slip = Buffer.from(safe.toString('latin1').replaceAll('zz/evil.txt', '../evil.txt'), 'latin1');
      await expectRefused(await postImport(fresh, slip), 400, /leaves the export's folder.*\.\.\/evil\.txt/);
    });

    it('refuses an entry past the unpacked limit, such as a bomb (413)', async () => {
      const bomb = await zipOf([...filesOf(SAMPLE), ['zeros.bin', Buffer.alloc(UNPACKED_LIMIT + 1)]]);
      expect(bomb.length).toBeLessThan(UNPACKED_LIMIT / 10);
      await expectRefused(await postImport(fresh, bomb), 413, /larger than 300000 bytes unpacked/);
    });

    it('refuses an entry that inflates past the size its header declares (400)', async () => {
      const zip = await zipOf([...filesOf(SAMPLE), ['zeros.bin', Buffer.alloc(100_000)]]);
      // The central directory's record of zeros.bin: its uncompressed size (offset 24) made 10 bytes.
      const name = zip.lastIndexOf('zeros.bin');
      const record = name - 46;
      expect(zip.readUInt32LE(record)).toBe(0x02014b50);
      zip.writeUInt32LE(10, record + 24);
      await expectRefused(await postImport(fresh, zip), 400, /Not a readable ZIP: .*bytes/);
    });

    it('refuses an export with a listed file missing (400), before importing any object', async () => {
      const missing = filesOf(SAMPLE).filter(([name]) => name !== 'content/60718293a4b5463de7f8091a2b3c4d5e/data.json');
      await expectRefused(
        await postImport(fresh, await zipOf(missing)),
        400,
        /60718293a4b5463de7f8091a2b3c4d5e\/data\.json: listed in __metadata__\.json but missing/,
      );
      const noBlob = filesOf(SAMPLE).filter(([name]) => !name.endsWith('/handbook.txt'));
      await expectRefused(await postImport(fresh, await zipOf(noBlob)), 400, /handbook\.txt: listed in __metadata__/);
    });

    it('takes the exported ZIP, and its own export gives the sample back', async () => {
      const answer = await postImport(fresh, exported);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ status: 'success', created: 11, failed: [] });
      const again = await fresh.request('GET', '/@export');
      expect(again.status).toBe(200);
      const entries = await entriesOf(Buffer.from(await again.arrayBuffer()));
      expectSampleWrittenBack((path) => entries.get(path) ?? Buffer.alloc(0));
      expectSidesWrittenBack((path) => entries.get(path) ?? Buffer.alloc(0), { multilingual: false });
    });
  });

  it('refuses identity’s principals export to a caller without plone.exportimport.export', async () => {
    const identity = createClient(protos().identity.IdentityService, t.suite.addresses.identity, 64 * 1024 * 1024);
    const exportAs = async (principal: Principal__Output | null) => {
      const ids: string[] = [];
      const stream = identity.ExportPrincipals({ principal }, requestMetadata('test'));
      for await (const { group, user } of stream) ids.push(group?.id ?? user?.id ?? '');
      return ids;
    };
    try {
      const member: Principal__Output = { id: 'member', roles: ['Member'], groups: [], fullname: '' };
      // PERMISSION_DENIED for a member, UNAUTHENTICATED without a principal: nothing is sent to either.
      await expect(exportAs(member)).rejects.toMatchObject({ code: 7 });
      await expect(exportAs(null)).rejects.toMatchObject({ code: 16 });
      const siteAdministrator = { ...member, id: 'siteadmin', roles: ['Site Administrator'] };
      expect(await exportAs(siteAdministrator)).toEqual(expect.arrayContaining(['editors', 'jane', 'siteadmin']));
    } finally {
      identity.close();
    }
  });

  describe('on a multilingual site', () => {
    let multilingual: TestSuite;

    beforeAll(async () => {
      multilingual = await startTestSuite();
    });
    afterAll(async () => {
      await multilingual?.stop();
    });

    it('links the sample’s translations at import, and its export writes them back', async () => {
      const languages = await multilingual.request('PATCH', '/@controlpanels/language', {
        body: { available_languages: ['en', 'de'] },
      });
      expect(languages.status).toBe(204);
      const answer = await postImport(multilingual, sampleZip);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({
        status: 'success',
        carried: { 'translations.json translation links': 1 },
      });
      const exportedHere = await multilingual.request('GET', '/@export');
      expect(exportedHere.status).toBe(200);
      const entries = await entriesOf(Buffer.from(await exportedHere.arrayBuffer()));
      expectSidesWrittenBack((path) => entries.get(path) ?? Buffer.alloc(0), { multilingual: true });
    });
  });
});
