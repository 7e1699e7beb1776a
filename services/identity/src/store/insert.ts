import { DuplicateKeyError, type Collection, type Document } from '@cms/shared';

/**
 * Inserts a document; false when the id is taken. A removed record whose
 * removal event is still queued (a tombstone) is taken over instead, and the
 * event stays queued.
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
