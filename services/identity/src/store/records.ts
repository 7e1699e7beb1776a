import { DuplicateKeyError, type Collection, type Document, type Update } from '@cms/shared';

/**
 * How identity keeps users and groups: each record carries a version that
 * every write bumps (a write names the version it read), and a removed record
 * stays as a tombstone until its removal event is out.
 */

/** Tombstones (removed records whose events are not out yet) are invisible to every read and write. */
export const LIVE = { _deleted: { $ne: true } };

/**
 * Applies `update` and the next version if the record is live at
 * `expectedVersion` (undefined: written before versions existed); false otherwise.
 */
export async function updateAtVersion<T extends Document>(
  collection: Collection<T>,
  id: string,
  expectedVersion: number | undefined,
  update: Update,
): Promise<boolean> {
  const result = await collection.updateOne(
    { _id: id, version: expectedVersion ?? { $exists: false }, ...LIVE },
    { ...update, $set: { ...update.$set, version: (expectedVersion ?? 0) + 1 } },
  );
  return result.matchedCount === 1;
}

/**
 * Inserts a record; false when the id is taken. A tombstone with the id is
 * taken over instead, and its queued events stay queued.
 */
export async function insertOverTombstone<T extends Document & { _id: string }>(
  collection: Collection<T>,
  doc: T,
): Promise<boolean> {
  try {
    await collection.insertOne(doc);
    return true;
  } catch (error) {
    if (!(error instanceof DuplicateKeyError)) throw error;
  }
  const { _id, ...fields } = doc;
  const replaced = await collection.findOneAndUpdate(
    { _id, _deleted: true },
    { $set: fields, $unset: { _deleted: '' } },
    { projection: { _id: 1 } },
  );
  return replaced !== null;
}

/** A case-insensitive substring match, the text taken literally. */
export function contains(text: string): { $regex: string; $options: string } {
  return { $regex: text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), $options: 'i' };
}
