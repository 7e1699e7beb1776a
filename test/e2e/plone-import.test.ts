/**
 * `npm run import` (services/content/dist/import.js) loads the sample Plone 6 export (test/fixtures/plone-export)
 * into the embedded mode through content's ImportObject (comments through discussion's ImportComments); run again,
 * it skips what is there.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { randomUUID } from 'node:crypto';
import { createClient, protos, requestMetadata, serviceKeySetting } from '@cms/shared';
import { writeAddressesFile } from '../../services/embedded/src/addresses';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';
import { expectSampleWrittenBack, expectSidesWrittenBack, SAMPLE } from '../support/plone-export-compare';
import { pollUntil } from '../support/poll';
import { assertFilesExist, baseEnv, ROOT } from '../support/processes';

const IMPORT = join(ROOT, 'services', 'content', 'dist', 'import.js');
const EXPORT = join(ROOT, 'services', 'content', 'dist', 'export.js');
const TEAM_UID = '1b2c3d4e5f60471829a3b4c5d6e7f809';
const DISCUSSION_SETTINGS = 'cms.app.discussion.interfaces.IDiscussionSettings';

type RawClient = grpc.Client &
  Record<string, (request: unknown, metadata: grpc.Metadata, cb: (error: grpc.ServiceError | null) => void) => void>;
interface CommentList {
  items_total: number;
  items: Record<string, unknown>[];
}
/** What an import carries of a comment (the rest depends on who asks). */
const summary = (c: Record<string, unknown>) => ({
  comment_id: c.comment_id,
  in_reply_to: c.in_reply_to,
  author_username: c.author_username,
  author_name: c.author_name,
  creation_date: c.creation_date,
  modification_date: c.modification_date,
  text: c.text,
});

function runImport(
  args: string[],
  env: NodeJS.ProcessEnv,
  script = IMPORT,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { env: { ...baseEnv(), ...env }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run import of a Plone 6 export', () => {
  let t: TestSuite;
  const asAdmin = () => ({ DATA_DIR: t.dataDir, IMPORT_PASSWORD: 'admin' });

  beforeAll(async () => {
    assertFilesExist([IMPORT], 'Build first: `npm run build` (or `npx tsc -b`).');
    t = await startTestSuite();
    writeAddressesFile(t.dataDir, t.suite.addresses, serviceKeySetting());
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('answers --help without connecting anywhere', async () => {
    const { code, stdout } = await runImport(['--help'], {
      CONTENT_ADDRESS: '127.0.0.1:1',
      IDENTITY_ADDRESS: '127.0.0.1:1',
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: npm run import -- <folder>\n/);
  });

  it('refuses a user who is neither Manager nor Site Administrator, and writes nothing', async () => {
    const created = await t.request('POST', '/@users', {
      body: { username: 'member', email: 'member@example.org', password: 'a-long-password' },
    });
    expect(created.status).toBe(201);
    const { code, stdout, stderr } = await runImport([SAMPLE], {
      ...asAdmin(),
      IMPORT_USER: 'member',
      IMPORT_PASSWORD: 'a-long-password',
    });
    expect({ code, stderr }).toEqual({ code: 1, stderr: '' });
    expect(stdout).toContain('imported 0 objects, 0 were there already, 12 failed');
    expect(stdout).toContain('failed /about: Importing needs the Manager or Site Administrator role');
    expect((await t.request('GET', '/about')).status).toBe(404);
    expect((await t.request('GET', '/@groups/editors')).status).toBe(404);
    expect(stdout).toContain('4 × principals.json groups — refused here');
  });

  it('loads every object with its UID, dates, workflow state, history and files, and says what it left out', async () => {
    const { code, stdout } = await runImport([SAMPLE], asAdmin());
    expect(code).toBe(0);
    // Not a terminal: plain progress lines, the last one at the end.
    expect(stdout).toMatch(/^import: 1\/12 \/\n/);
    expect(stdout).toContain('import: 12/12 /willkommen\n');
    expect(stdout).toContain('imported 11 objects, 0 were there already, 0 failed\n');
    for (const line of [
      'carried 2 × relations.json relations\n',
      'carried 2 × redirects.json redirects\n',
      // plone.exportimport writes no author of an earlier version: the import says so.
      '1 × exportimport.versions — the export names no author of 1 earlier version(s)',
      'carried 3 × discussions.json comments\n',
      'carried 1 × principals.json groups\n',
      'carried 2 × principals.json users\n',
      // The built-in groups exist here already.
      '3 × principals.json groups — there already (left as it is)',
      '2 × password — a Plone password hash cannot be used here',
      '1 × site root — this site',
      // This site has one language: the link between the English and the German page is refused, with why.
      '1 × translations.json translation links — refused here: Translations need a multilingual site',
    ])
      expect(stdout).toContain(line);

    const team = (await (await t.request('GET', '/about/team')).json()) as Record<string, unknown>;
    expect(team).toMatchObject({
      UID: TEAM_UID,
      review_state: 'published',
      created: '2024-03-02T10:00:00',
      creators: ['admin', 'jane'],
      subjects: ['team', 'people'],
    });
    // The workflow history of the export, with its actor and time (not the import's).
    const history = (await (await t.request('GET', '/about/team/@history')).json()) as unknown[];
    expect(history).toContainEqual(
      expect.objectContaining({
        type: 'workflow',
        action: 'publish',
        time: '2024-03-04T16:30:00Z',
        actor: expect.objectContaining({ id: 'jane' }),
      }),
    );
    // The team page is a relation's source: that write dates it now (reported); others keep their date.
    expect(stdout).toContain("2 × modified — of a relation's source: the write that adds the relation dates it now");
    const sprint = (await (await t.request('GET', '/news/sprint')).json()) as Record<string, unknown>;
    expect(sprint).toMatchObject({ created: '2024-03-06T11:00:00', modified: '2024-03-06T11:00:00' });
    // Published in the export: anonymous may view it; the private event stays private.
    expect((await t.request('GET', '/news/launch', { auth: null })).status).toBe(200);
    expect((await t.request('GET', '/news/sprint', { auth: null })).status).toBe(401);
    const handbook = await t.request('GET', '/about/handbook.txt/@@download/file');
    expect(Buffer.from(await handbook.arrayBuffer())).toEqual(
      readFileSync(join(SAMPLE, 'content', '60718293a4b5463de7f8091a2b3c4d5e', 'file', 'handbook.txt')),
    );
    const logo = await t.request('GET', '/logo.png/@@images/image');
    expect(Buffer.from(await logo.arrayBuffer())).toEqual(
      readFileSync(join(SAMPLE, 'content', '718293a4b5c6474ef8091a2b3c4d5e6f', 'image', 'logo.png')),
    );
    const sharing = (await (await t.request('GET', '/about/@sharing')).json()) as { inherit: boolean };
    expect(sharing.inherit).toBe(false);
    const related = (await (await t.request('GET', '/@relations?source=/news/launch')).json()) as {
      relations: { relatedItems: { items: { target: { '@id': string } }[] } };
    };
    expect(related.relations.relatedItems.items.map((i) => new URL(i.target['@id']).pathname)).toEqual([
      '/news/sprint',
    ]);
    const jane = (await (await t.request('GET', '/@users/jane')).json()) as { groups: { items: { id: string }[] } };
    expect(jane.groups.items.map((g) => g.id)).toEqual(expect.arrayContaining(['editors', 'Reviewers']));
    const aliases = (await (await t.request('GET', '/about/@aliases')).json()) as { items: { path: string }[] };
    expect(aliases.items).toEqual([
      { path: '/about-us', 'redirect-to': '/about', manual: true, datetime: expect.any(String) },
    ]);
  });

  it('carries the comments: @comments serves them with their ids, threads, authors, dates and texts', async () => {
    await t.admin('PATCH', '/@registry', { [`${DISCUSSION_SETTINGS}.globally_enabled`]: true });
    const launch = (await (await t.request('GET', '/news/launch/@comments')).json()) as CommentList;
    expect(launch.items_total).toBe(2);
    expect(launch.items.map(summary)).toEqual([
      {
        comment_id: '1709630400000001',
        in_reply_to: null,
        author_username: 'joe',
        author_name: 'Joe Sprinter',
        creation_date: '2024-03-05T09:20:00+00:00',
        modification_date: '2024-03-05T09:20:00+00:00',
        text: { data: 'Is there a student discount?', 'mime-type': 'text/plain' },
      },
      {
        comment_id: '1709634000000002',
        in_reply_to: '1709630400000001',
        author_username: 'jane',
        author_name: 'Jane Editor',
        creation_date: '2024-03-05T10:20:00+00:00',
        modification_date: '2024-03-05T10:20:00+00:00',
        text: { data: 'Yes, half price with a student card.', 'mime-type': 'text/plain' },
      },
    ]);
    // Published (plone.exportimport carries no state): anonymous visitors see them.
    const team = (await (await t.request('GET', '/about/team/@comments', { auth: null })).json()) as CommentList;
    expect(team.items.map(summary)).toEqual([
      expect.objectContaining({ comment_id: '1709570000000003', author_username: null, author_name: 'A visitor' }),
    ]);
    // Written with their events: search indexes them as it indexes comments posted here.
    const address = `${t.suite.publicUrl}/news/launch/++conversation++default/1709630400000001`;
    const found = async () => {
      const answer = (await (await t.request('GET', '/@search?SearchableText=discount')).json()) as CommentList;
      return answer.items.map((item) => item['@id']);
    };
    expect(await pollUntil(async () => (await found()).includes(address), 10_000)).toBe(true);
  });

  it('refuses ImportComments without a service proof, for a principal without the permission, or malformed', async () => {
    const uid = '3d4e5f607182493ab4c5d6e7f8091a2b';
    const forgedComment = {
      comment_id: '1800000000000001',
      in_reply_to: '',
      text: 'forged',
      mime_type: 'text/plain',
      author_username: 'intruder',
      author_name: '',
      author_email: '',
      user_notification: false,
      review_state: '',
      created: '2024-03-05T11:00:00Z',
      modified: '2024-03-05T11:00:00Z',
    };
    const request = (roles: string[]) => ({
      principal: { id: 'intruder', roles, groups: [], fullname: '' },
      content_uid: uid,
      comments: [forgedComment],
    });
    const Service = protos().discussion.DiscussionService;
    const unsigned = new (Service as unknown as new (a: string, c: grpc.ChannelCredentials) => RawClient)(
      t.suite.addresses.discussion,
      grpc.credentials.createInsecure(),
    );
    const signed = createClient(Service, t.suite.addresses.discussion, 4 * 1024 * 1024);
    const call = (client: RawClient | typeof signed, roles: string[], body = request(roles)) =>
      new Promise<grpc.ServiceError | null>((resolve) =>
        (client as RawClient).ImportComments(body, requestMetadata(randomUUID()), (error) => resolve(error)),
      );
    try {
      expect((await call(unsigned, ['Manager']))?.code).toBe(grpc.status.UNAUTHENTICATED);
      expect((await call(signed, ['Member']))?.code).toBe(grpc.status.PERMISSION_DENIED);
      // A Manager's call with a malformed comment is refused whole, naming the comment and field (not echoing it).
      const malformed = {
        ...request(['Manager']),
        comments: [{ ...forgedComment, comment_id: '<script>'.repeat(50) }],
      };
      const refused = await call(signed, ['Manager'], malformed);
      expect(refused?.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(refused?.details).toMatch(/comments\.0\.comment_id: not a comment id/);
      expect(refused?.details).not.toContain('<script>');
    } finally {
      unsigned.close();
      signed.close();
    }
    const launch = (await (await t.request('GET', '/news/launch/@comments')).json()) as CommentList;
    expect(launch.items.map((c) => c.comment_id)).toEqual(['1709630400000001', '1709634000000002']);
  });

  it('run again, skips what is there by UID (how an import cut short is finished)', async () => {
    const { code, stdout } = await runImport([SAMPLE], asAdmin());
    expect(code).toBe(0);
    expect(stdout).toContain('imported 0 objects, 11 were there already, 0 failed\n');
    // The links are made again without doubling.
    const related = (await (await t.request('GET', '/@relations?source=/news/launch')).json()) as {
      relations: { relatedItems: { items: unknown[] } };
    };
    expect(related.relations.relatedItems.items).toHaveLength(1);
    // Comments by their ids: none twice.
    expect(stdout).toContain('3 × discussions.json comments — there already (left as it is)');
    expect(stdout).not.toContain('carried 3 × discussions.json comments');
    const launch = (await (await t.request('GET', '/news/launch/@comments')).json()) as CommentList;
    expect(launch.items_total).toBe(2);
  });

  // Last: its revert changes the page.
  it("carries the earlier versions: @history lists Plone's, @history/<n> answers one and a revert to it works", async () => {
    type Entry = Record<string, unknown> & { actor: { id: string } };
    const history = (await (await t.request('GET', '/about/team/@history')).json()) as Entry[];
    const versions = history.filter((entry) => entry.type === 'versioning');
    // The export's version 0, then the object itself as version 1 (its changeNote and changeActor); the import's
    // write of the page's relation (a change of its content here) makes the newest, by the importer, now.
    expect(
      versions.map(({ version, comments, time, actor }) => ({ version, comments, time, actor: actor.id })),
    ).toEqual([
      { version: 2, comments: '', time: expect.any(String), actor: 'admin' },
      { version: 1, comments: 'Added Joe', time: '2024-03-04T16:30:00Z', actor: 'jane' },
      { version: 0, comments: 'First draft', time: '2024-03-02T10:00:00Z', actor: '' },
    ]);
    const first = await t.request('GET', '/about/team/@history/0');
    expect(first.status).toBe(200);
    const asOfFirst = (await first.json()) as Record<string, unknown> & { blocks_layout: { items: string[] } };
    expect(asOfFirst).toMatchObject({ version: '0', title: 'Our team', description: 'The people', UID: TEAM_UID });
    expect(asOfFirst.blocks_layout.items).toHaveLength(2);
    expect(JSON.stringify(asOfFirst.blocks)).toContain('Jane leads the team.');

    expect((await t.request('PATCH', '/about/team/@history', { body: { version: 0 } })).status).toBe(200);
    const reverted = (await (await t.request('GET', '/about/team')).json()) as Record<string, unknown>;
    expect(reverted).toMatchObject({ title: 'Our team', description: 'The people' });
    expect(JSON.stringify(reverted.blocks)).not.toContain('Joe runs the sprints');
  });
});

describe('npm run import of an export with an earlier version that does not fit', () => {
  let t: TestSuite;
  let folder: string;

  beforeAll(async () => {
    t = await startTestSuite();
    writeAddressesFile(t.dataDir, t.suite.addresses, serviceKeySetting());
    // The sample, with the team page's earlier version stripped of its (required) title.
    folder = mkdtempSync(join(tmpdir(), 'plone-export-odd-version-'));
    cpSync(SAMPLE, folder, { recursive: true });
    const file = join(folder, 'content', TEAM_UID, 'data.json');
    const item = JSON.parse(readFileSync(file, 'utf8')) as { 'exportimport.versions': Record<string, object> };
    delete (item['exportimport.versions']['0'] as { title?: string }).title;
    writeFileSync(file, JSON.stringify(item));
  });
  afterAll(async () => {
    await t?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('imports the object without that version, and says why it left it out', async () => {
    const { code, stdout } = await runImport([folder], { DATA_DIR: t.dataDir, IMPORT_PASSWORD: 'admin' });
    expect(code).toBe(0);
    expect(stdout).toContain('0 failed');
    expect(stdout).toMatch(/exportimport\.versions\.0 — this version does not fit the type here/);
    const team = await t.request('GET', '/about/team');
    expect(team.status).toBe(200);
    // Its history starts with the import, as an object without earlier versions does: Plone's "First draft" is not in it.
    type Entry = { type: string; comments?: string };
    const history = (await (await t.request('GET', '/about/team/@history')).json()) as Entry[];
    const notes = history.filter((entry) => entry.type === 'versioning').map((entry) => entry.comments);
    expect(notes).toContain('Initial version');
    expect(notes).not.toContain('First draft');
  });
});

describe('npm run export after the import (the round trip)', () => {
  let t: TestSuite;
  let folder: string;
  const env = () => ({ DATA_DIR: t.dataDir, IMPORT_PASSWORD: 'admin', EXPORT_PASSWORD: 'admin' });

  beforeAll(async () => {
    assertFilesExist([IMPORT, EXPORT], 'Build first: `npm run build` (or `npx tsc -b`).');
    t = await startTestSuite();
    writeAddressesFile(t.dataDir, t.suite.addresses, serviceKeySetting());
    folder = mkdtempSync(join(tmpdir(), 'plone-export-out-'));
    expect((await runImport([SAMPLE], env())).code).toBe(0);
  });
  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    await t?.stop();
  });

  it('writes the sample back: every object, file, local role and position, equal but for the members named', async () => {
    const { code, stdout } = await runImport([folder], env(), EXPORT);
    expect(code).toBe(0);
    expect(stdout).toContain('export: 12/12 /willkommen\n');
    expect(stdout).toContain('exported 12 objects and 2 files\n');

    expectSampleWrittenBack((path) => readFileSync(join(folder, ...path.split('/'))));
    // The team page's versions: the sample's (compared above), then the object as the sample gives it, which
    // the relation's write (the newest) follows.
    const team = JSON.parse(readFileSync(join(folder, 'content', TEAM_UID, 'data.json'), 'utf8')) as {
      'exportimport.versions': Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(team['exportimport.versions'])).toEqual(['0', '1']);
    expect(team['exportimport.versions']['1']).toMatchObject({
      version: 1,
      changeNote: 'Added Joe',
      changeActor: 'jane',
      modified: '2024-03-04T16:30:00+00:00',
      description: 'The people behind the conference',
    });
    // This site has one language: the translation link was refused at import, so there is none to write.
    expectSidesWrittenBack((path) => readFileSync(join(folder, ...path.split('/'))), { multilingual: false });
    const notExported = stdout.slice(stdout.indexOf('not exported:\n'));
    for (const file of ['principals.json', 'discussions.json', 'translations.json', 'redirects.json'])
      expect(notExported).not.toContain(`${file} (not exported yet)`);
    expect(notExported).toContain('principals.json passwords (a Plone password hash cannot be made from ours');
  });

  it('refuses a user who is neither Manager nor Site Administrator, and writes no file', async () => {
    const created = await t.request('POST', '/@users', {
      body: { username: 'member', email: 'member@example.org', password: 'a-long-password' },
    });
    expect(created.status).toBe(201);
    const empty = mkdtempSync(join(tmpdir(), 'plone-export-refused-'));
    try {
      const member = { EXPORT_USER: 'member', EXPORT_PASSWORD: 'a-long-password' };
      const { code, stderr } = await runImport([empty], { ...env(), ...member }, EXPORT);
      expect(code).toBe(1);
      expect(stderr).toMatch(/^export failed: .*Exporting needs the Manager or Site Administrator role\n$/);
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('refuses a folder that is not empty, before connecting', async () => {
    const { code, stderr } = await runImport([SAMPLE], { ...env(), CONTENT_ADDRESS: '127.0.0.1:1' }, EXPORT);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^export failed: .*plone-export is not empty\n$/);
  });
});
