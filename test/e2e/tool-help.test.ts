/**
 * The command-line tools answer `--help` with their usage and exit 0 before reading a setting or connecting
 * (issue 29, item 5): here with every address pointing at a port nothing listens on, and no broker URL at all.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../support/processes';

const TOOLS = [
  ['reindex', 'services/search/dist/reindex.js'],
  ['translations:rebuild', 'services/content/dist/translations-rebuild.js'],
  ['events:replay', 'services/shared/dist/runtime/replay-dead-letters.js'],
  ['import', 'services/content/dist/import.js'],
  ['export', 'services/content/dist/export.js'],
  ['migrate', 'services/content/dist/migrate.js'],
];

describe('the tools’ --help', () => {
  it.each(TOOLS)('npm run %s -- --help prints its usage and connects to nothing', (name, script) => {
    for (const flag of ['--help', '-h']) {
      const run = spawnSync(process.execPath, [join(ROOT, script), flag], {
        encoding: 'utf8',
        timeout: 20_000,
        env: {
          PATH: process.env.PATH,
          SEARCH_ADDRESS: '127.0.0.1:1',
          CONTENT_ADDRESS: '127.0.0.1:1',
          IDENTITY_ADDRESS: '127.0.0.1:1',
          DATA_DIR: join(ROOT, 'no-such-data-dir'),
        },
      });
      expect([run.status, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toMatch(new RegExp(`^usage: npm run ${name}`, 'i'));
    }
  });
  it.each(TOOLS.slice(0, 2))(
    'npm run %s says how a rebuild cut short is resumed, and refuses an unknown option',
    (_name, script) => {
      const env = { PATH: process.env.PATH, SEARCH_ADDRESS: '127.0.0.1:1', CONTENT_ADDRESS: '127.0.0.1:1' };
      const help = spawnSync(process.execPath, [join(ROOT, script), '--help'], {
        encoding: 'utf8',
        timeout: 20_000,
        env,
      });
      expect(help.stdout).toMatch(/goes on from where it stopped/);
      expect(help.stdout).toMatch(/--from-scratch/);
      const wrong = spawnSync(process.execPath, [join(ROOT, script), '--resume-from=x'], {
        encoding: 'utf8',
        timeout: 20_000,
        env,
      });
      expect([wrong.status, wrong.stdout]).toEqual([2, '']);
      expect(wrong.stderr).toMatch(/^usage: npm run /);
    },
  );
});
