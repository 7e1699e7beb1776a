/**
 * The one-time carry-over of a service's embedded data folder into its SQLite file (issue 27): a service whose store
 * is now SQLite starts with the documents its embedded folder held, instead of an empty site.
 *
 * Taken when the SQLite file does not exist yet and the folder holds collections (`<name>.db` files). Every
 * collection's documents are read through the store port and written through it into a file beside the target,
 * counted again there, and only then renamed to the target, so a process killed midway leaves no half-filled store:
 * the next start carries the folder over again. The folder itself is left as it was (the operator removes it once
 * satisfied), and a later start finds the SQLite file and carries nothing. Indexes are not carried: each service
 * declares its own when it starts, as it did on the embedded store. Blobs stay where they are (both engines keep
 * them as files under DATA_DIR/content/blobs).
 */
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Logger } from '../../logging/logger';
import type { Document } from '../../ports/store';
import { openEmbeddedStore } from './embedded/embedded-store';
import { openSqliteStore } from './sqlite';

/** Documents handed to the SQLite store at once, committed together: a whole collection would be one transaction. */
const BATCH = 1_000;

export interface CarryOverReport {
  from: string;
  to: string;
  collections: { name: string; documents: number }[];
  documents: number;
  seconds: number;
}

/** Whether `dataDir` holds embedded collections. */
function holdsEmbeddedData(dataDir: string): boolean {
  return existsSync(dataDir) && readdirSync(dataDir).some((file) => file.endsWith('.db'));
}

/** Removes a SQLite file with its write-ahead log and shared-memory index. */
function removeSqliteFile(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}

/**
 * Carries the embedded store under `dataDir` into the SQLite file `file` when that file does not exist yet and the
 * folder holds collections; what was carried, or undefined when nothing was to be.
 */
export async function carryEmbeddedToSqlite(
  dataDir: string,
  file: string,
  logger?: Logger,
): Promise<CarryOverReport | undefined> {
  // A SQLite folder that is the data folder itself holds the SQLite files of the other services, not collections.
  if (existsSync(file) || resolve(dirname(file)) === resolve(dataDir) || !holdsEmbeddedData(dataDir)) return undefined;
  const started = performance.now();
  const partial = `${file}.carrying`;
  removeSqliteFile(partial); // what a killed carry-over left
  const from = await openEmbeddedStore(dataDir, logger);
  const collections: CarryOverReport['collections'] = [];
  try {
    const to = openSqliteStore(partial);
    try {
      // The embedded store reports its collections (one `<name>.db` file each).
      for (const { name } of (await from.stats!()).collections) {
        const docs = await from.collection(name).find({});
        const target = to.collection<Document>(name);
        for (let i = 0; i < docs.length; i += BATCH)
          await Promise.all(docs.slice(i, i + BATCH).map((doc) => target.insertOne(doc)));
        const written = await target.countDocuments({});
        if (written !== docs.length)
          throw new Error(`carrying ${name} over to SQLite: ${docs.length} documents read, ${written} written`);
        collections.push({ name, documents: docs.length });
      }
    } finally {
      // Closing checkpoints the write-ahead log into the file, so that the rename moves every document.
      await to.close();
    }
  } catch (error) {
    removeSqliteFile(partial);
    throw error;
  } finally {
    await from.close();
  }
  renameSync(partial, file);
  const report: CarryOverReport = {
    from: dataDir,
    to: file,
    collections,
    documents: collections.reduce((sum, c) => sum + c.documents, 0),
    seconds: Math.round(performance.now() - started) / 1000,
  };
  logger?.info(report, 'carried the embedded data folder over to SQLite (the folder is left as it was)');
  return report;
}
