/**
 * The one way an object is deleted with everything inside it, for a caller's `DELETE` (content-commands.ts) and
 * for a working copy checked in or cancelled (working-copies.ts).
 */
import type { Permission } from '@cms/shared';
import type { FileStorage } from '../files/files';
import type { TypeRegistry } from '../types';
import { removedEvent } from './content-events';
import { fileValuesOf } from './field-values';
import type { ContentDoc } from './model';
import type { ContentRepository } from './repository';
import type { ContentWriter, WriteAuthor } from './write-path';

/** What removing a tree uses. */
export interface TreeRemover {
  repo: Pick<ContentRepository, 'descendants' | 'deleteDescendants'>;
  writer: Pick<ContentWriter, 'write' | 'deferFlushes' | 'forgetVersions'>;
  files: Pick<FileStorage, 'release'>;
  types: TypeRegistry;
}

/** Who removes it: a caller (with the permission the write needs, unless its endpoint's proof is it) or the system. */
export interface Removal {
  author: WriteAuthor;
  requestId: string;
  permission?: Permission;
}

/**
 * Deletes `doc` and its descendants: a tombstone on `doc` with the removal event, then the descendants, then the
 * event's publish; then the versions of all of them go, and the blobs only they referred to are released. Nothing
 * is done when a system write finds `doc` gone (a caller's write is 404 then).
 */
export async function removeTree(doc: ContentDoc, removal: Removal, using: TreeRemover): Promise<void> {
  const { repo, writer, files, types } = using;
  let below: ContentDoc[] = [];
  // The events go out once what was inside is gone too (as the relay would finish it).
  const flushes = writer.deferFlushes();
  const written = await writer.write(
    doc,
    {
      kind: 'delete',
      permission: removal.permission,
      plan: async (current) => {
        below = await repo.descendants(current._id);
        const removed = [current._id, ...below.map((d) => d._id)];
        return {
          // The commit point: a tombstone, whose path is free at once; the relay removes it once published.
          set: { _deleted: true },
          unset: ['path', 'parent_uid'],
          events: (next) => [removedEvent(current, next.version, removed, removal.requestId)],
        };
      },
    },
    removal.author,
    flushes,
  );
  if (!written) return;
  await repo.deleteDescendants(doc._id);
  await flushes.flush();
  const removed = [written.before, ...below];
  const versioned = await writer.forgetVersions(removed);
  await files.release([...removed.flatMap((d) => fileValuesOf(d, types)), ...versioned]);
}
