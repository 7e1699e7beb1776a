import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The blobs on disk of a suite on the embedded store: one file per blob under `<dataDir>/content/blobs/<shard>/`. */
export function blobsOnDisk(dataDir: string): Set<string> {
  const dir = join(dataDir, 'content', 'blobs');
  if (!existsSync(dir)) return new Set();
  return new Set(
    readdirSync(dir)
      .filter((shard) => shard !== 'tmp')
      .flatMap((shard) => readdirSync(join(dir, shard))),
  );
}
