import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * The gateway needs neither a store nor a bus, nor any service's code: its routing table is generated from the
 * services' declarations (scripts/routes-gen.mjs). Checked on the build a gateway process runs.
 */
describe('what a gateway process loads', () => {
  it('loads no store or bus adapter and no service code', () => {
    const script = `
      require(${JSON.stringify(join(ROOT, 'gateway/dist/main.js').replace('main.js', 'server.js'))});
      process.stdout.write(JSON.stringify(Object.keys(require.cache)));
    `;
    const loaded = JSON.parse(
      execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' }),
    ) as string[];
    const forbidden = loaded.filter((file) =>
      /[\\/]node_modules[\\/](\.pnpm[\\/])?(@seald-io|mongodb|amqplib|mingo)|[\\/]services[\\/](content|identity|search|discussion|config|embedded)[\\/]/.test(
        file,
      ),
    );
    expect(loaded.some((file) => file.includes('grpc-js'))).toBe(true);
    expect(forbidden).toEqual([]);
  });
});
