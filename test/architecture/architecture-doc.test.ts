/** ARCHITECTURE.md names files and folders: each must exist, so the page cannot drift from the code unnoticed. */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

/** The repository paths in backticks: starting with a top-level folder, without placeholders like `<service>`. */
function namedPaths(markdown: string): string[] {
  const roots = /^(gateway|services|proto|test|deploy|scripts|bench|docker)\//;
  return [...markdown.matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1])
    .filter((path) => roots.test(path) && !/[<>]/.test(path));
}

describe('ARCHITECTURE.md', () => {
  const page = readFileSync(resolve(ROOT, 'ARCHITECTURE.md'), 'utf8');
  const paths = namedPaths(page);

  it('names the files a read and a write pass through', () => {
    expect(paths.length).toBeGreaterThan(30);
  });

  it('names only files and folders that exist', () => {
    expect(paths.filter((path) => !existsSync(resolve(ROOT, path)))).toEqual([]);
  });
});
