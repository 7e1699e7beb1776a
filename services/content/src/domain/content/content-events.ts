/** The events of content writes (proto/EVENTS.md), each carrying the object's snapshot at its new version. */
import { newEvent, type EventEnvelope } from '@cms/shared';
import type { ContentDoc } from './model';
import { snapshot } from './snapshot';

/** A new object: created, copied, or the site root. */
export function addedEvent(doc: ContentDoc, requestId?: string): EventEnvelope {
  return newEvent('content.added', { uid: doc._id, version: doc.version, snapshot: snapshot(doc) }, requestId);
}

/** Fields of an object changed (`changed` names them). */
export function modifiedEvent(next: ContentDoc, changed: string[], requestId?: string): EventEnvelope {
  return newEvent(
    'content.modified',
    { uid: next._id, version: next.version, changed, snapshot: snapshot(next) },
    requestId,
  );
}

/** An object got another path: moved, renamed, or below one that was. */
export function movedEvent(before: ContentDoc, next: ContentDoc, requestId?: string): EventEnvelope {
  return newEvent(
    'content.moved',
    {
      uid: next._id,
      version: next.version,
      old_path: before.path ?? '',
      new_path: next.path ?? '',
      old_parent_uid: before.parent_uid ?? '',
      new_parent_uid: next.parent_uid ?? '',
      snapshot: snapshot(next),
    },
    requestId,
  );
}

/** An object's place among its siblings changed. */
export function orderedEvent(next: ContentDoc, requestId?: string): EventEnvelope {
  return newEvent(
    'content.ordered',
    {
      uid: next._id,
      version: next.version,
      parent_uid: next.parent_uid ?? '',
      position: next.position,
      snapshot: snapshot(next),
    },
    requestId,
  );
}

/** An object and everything inside it (`removedUids`, the object first) were removed. */
export function removedEvent(
  before: ContentDoc,
  version: number,
  removedUids: string[],
  requestId?: string,
): EventEnvelope {
  return newEvent(
    'content.removed',
    { uid: before._id, version, path: before.path ?? '', removed_uids: removedUids },
    requestId,
  );
}
