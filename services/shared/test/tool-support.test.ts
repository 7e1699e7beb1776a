import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolTarget } from '../src/runtime/embedded-addresses';
import { progress } from '../src/runtime/tool-support';

function lineStream() {
  const lines: string[] = [];
  const stream = { isTTY: false, write: (text: string) => lines.push(text) } as unknown as NodeJS.WriteStream;
  return { stream, lines };
}

describe('progress off a terminal', () => {
  it('writes a line at most every 2 s, and always the last', () => {
    const { stream, lines } = lineStream();
    let clock = 0;
    const bar = progress('import', 4, stream, () => clock);
    bar.tick('/a');
    clock = 1000;
    bar.tick('/b');
    clock = 2500;
    bar.tick('/c');
    clock = 2600;
    bar.tick('/d');
    bar.stop();
    expect(lines).toEqual(['import: 1/4 /a\n', 'import: 3/4 /c\n', 'import: 4/4 /d\n']);
  });

  it('says where it stopped when stopped short', () => {
    const { stream, lines } = lineStream();
    const bar = progress('export', 3, stream, () => 0);
    bar.tick('/a');
    bar.stop();
    expect(lines).toEqual(['export: 1/3 /a\n', 'export: 1/3 (stopped)\n']);
  });
});

describe('toolTarget', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tool-support-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prefers the variable, then the embedded mode’s file (with its key), then the default', () => {
    const variable = { variable: 'CONTENT_ADDRESS' };
    expect(toolTarget('content', { ...variable, address: '10.0.0.1:7' }, dataDir, '127.0.0.1:50051')).toEqual({
      address: '10.0.0.1:7',
      from: 'CONTENT_ADDRESS',
    });
    expect(toolTarget('content', variable, dataDir, '127.0.0.1:50051')).toEqual({
      address: '127.0.0.1:50051',
      from: 'the default; set CONTENT_ADDRESS',
    });
    writeFileSync(
      join(dataDir, 'embedded-addresses.json'),
      JSON.stringify({ content: '127.0.0.1:4000', serviceKey: 'k'.repeat(40) }),
    );
    expect(toolTarget('content', variable, dataDir, '127.0.0.1:50051')).toMatchObject({
      address: '127.0.0.1:4000',
      serviceKey: 'k'.repeat(40),
    });
    expect(() => toolTarget('identity', { variable: 'IDENTITY_ADDRESS' }, dataDir, '127.0.0.1:50052')).toThrow(
      /embedded-addresses.json names no identity address$/,
    );
  });
});
