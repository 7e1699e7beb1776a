/**
 * `npm run reindex` (services/search/dist/reindex.js) against the embedded
 * mode, whose services bind free loopback ports: it finds search through the
 * addresses file the embedded mode keeps under DATA_DIR, unless SEARCH_ADDRESS
 * says otherwise.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { addressesFileIn, removeAddressesFile, writeAddressesFile } from '../../services/embedded/src/addresses';
import { serviceKeySetting } from '@cms/shared';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';
import { assertFilesExist, baseEnv, ROOT, runNode } from '../support/processes';

const REINDEX = join(ROOT, 'services', 'search', 'dist', 'reindex.js');

describe('npm run reindex against the embedded mode', () => {
  let t: TestSuite;
  beforeAll(async () => {
    assertFilesExist([REINDEX], 'Build first: `npm run build` (or `npx tsc -b`).');
    t = await startTestSuite();
    for (const title of ['Zebra crossing', 'Zebra finch']) {
      expect((await t.request('POST', '/', { body: { '@type': 'Document', title } })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await t?.stop();
  });

  const reindex = (env: NodeJS.ProcessEnv = {}) =>
    runNode('reindex', REINDEX, { ...baseEnv(), DATA_DIR: t.dataDir, ...env }, 20_000);
  const found = async (word: string) =>
    ((await (await t.request('GET', `/@search?SearchableText=${word}`)).json()) as { items_total: number }).items_total;

  it('reaches the search service through DATA_DIR/embedded-addresses.json', async () => {
    writeAddressesFile(t.dataDir, t.suite.addresses, serviceKeySetting());
    expect(addressesFileIn(t.dataDir)).toBe(join(t.dataDir, 'embedded-addresses.json'));
    expect(existsSync(addressesFileIn(t.dataDir))).toBe(true);
    const { code, output } = await reindex();
    // Off a terminal: progress lines `reindex: done/total what` (the first, then every 2 s and the last), then
    // the summary line.
    const lines = output.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^reindexed \d+ objects, removed 0 stale entries$/);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/^reindex: \d+\/\d+ \S/);
    const [, done, total] = /^reindex: (\d+)\/(\d+)/.exec(lines.at(-2)!)!;
    expect(Number(done)).toBe(Number(total));
    expect(code).toBe(0);
    // The site root and the two documents at least.
    expect(Number(/reindexed (\d+)/.exec(output)![1])).toBeGreaterThanOrEqual(3);
    expect(Number(total)).toBeGreaterThanOrEqual(3);
    expect(await found('zebra')).toBe(2);
  });

  it('prefers SEARCH_ADDRESS, and says where it looked when it cannot reach search', async () => {
    writeAddressesFile(t.dataDir, t.suite.addresses, serviceKeySetting());
    const { code, output } = await reindex({ SEARCH_ADDRESS: '127.0.0.1:1' });
    expect(code).toBe(1);
    expect(output).toMatch(/^\[err\] reindex failed: .*\(search service at 127\.0\.0\.1:1, from SEARCH_ADDRESS\)\n$/);
  });

  it('removeAddressesFile takes the file away (the embedded mode at stop), and minds no missing file', async () => {
    writeAddressesFile(t.dataDir, t.suite.addresses, serviceKeySetting());
    removeAddressesFile(t.dataDir);
    expect(existsSync(addressesFileIn(t.dataDir))).toBe(false);
    // Removing it twice is fine (a stop after a failed start).
    removeAddressesFile(t.dataDir);
  });
});
