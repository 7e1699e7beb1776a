import type { ContentSnapshot } from './content-events';
import type { DomainEvent, EventPayloads, EventType } from './event-types';

/**
 * The rules an event must meet before a consumer sees it, beyond what the proto
 * types say. A message that breaks one is dead-lettered at once: no retry can
 * make it valid, and a handler must be able to trust what it is given.
 */

type Check = (ok: boolean, problem: string) => void;

/** A payload as it comes off the wire: a message-typed field may be missing. */
type Decoded<P> = P extends { snapshot: ContentSnapshot }
  ? Omit<P, 'snapshot'> & { snapshot: ContentSnapshot | null }
  : P;

/** A decoded event whose payload has not been checked yet. */
export type UncheckedEvent = {
  [T in EventType]: Omit<Extract<DomainEvent, { type: T }>, 'payload'> & { payload: Decoded<EventPayloads[T]> };
}[EventType];

const UID = /^[0-9a-f]{32}$/;
const isUid = (value: string) => UID.test(value);
const isVersion = (value: number) => Number.isInteger(value) && value >= 1;
const isPath = (value: string) => value.startsWith('/');
const isInstant = (value: string) => value !== '' && !Number.isNaN(Date.parse(value));
const isPosition = (value: number) => Number.isInteger(value) && value >= 0;
/** Comment ids are decimal numbers (microseconds of their creation, as the reference's). */
const isCommentId = (value: string) => /^[0-9]{1,20}$/.test(value);

function checkObject(payload: { uid: string; version: number }, check: Check): void {
  check(isUid(payload.uid), 'uid is not 32 hex digits');
  check(isVersion(payload.version), 'version is not a positive integer');
}

function checkComment(payload: { content_uid: string; comment_id: string; version: number }, check: Check): void {
  check(isUid(payload.content_uid), 'content_uid is not 32 hex digits');
  check(isCommentId(payload.comment_id), 'comment_id is not a comment id');
  check(isVersion(payload.version), 'version is not a positive integer');
}

/** The snapshot is the object at the event's version; returns it when present. */
function checkSnapshot(
  payload: { uid: string; version: number; snapshot: ContentSnapshot | null },
  check: Check,
): ContentSnapshot | null {
  const snapshot = payload.snapshot;
  check(snapshot !== null, 'snapshot is missing');
  if (!snapshot) return null;
  check(snapshot.uid === payload.uid, 'snapshot.uid differs from uid');
  check(snapshot.version === payload.version, 'snapshot.version differs from version');
  check(isPath(snapshot.path), 'snapshot.path does not start with /');
  check(
    snapshot.path === '/' ? snapshot.parent_uid === '' : isUid(snapshot.parent_uid),
    'snapshot.parent_uid is not the uid of a parent',
  );
  check(snapshot.portal_type !== '', 'snapshot.portal_type is empty');
  check(isInstant(snapshot.created) && isInstant(snapshot.modified), 'snapshot.created or modified is not an instant');
  check(
    [snapshot.effective, snapshot.expires].every((date) => date === undefined || isInstant(date)),
    'snapshot.effective or expires is not an instant',
  );
  check(isPosition(snapshot.position), 'snapshot.position is negative');
  return snapshot;
}

const VALIDATORS: { [T in EventType]: (payload: Decoded<EventPayloads[T]>, check: Check) => void } = {
  'content.added': (payload, check) => {
    checkObject(payload, check);
    checkSnapshot(payload, check);
  },
  'content.modified': (payload, check) => {
    checkObject(payload, check);
    check(payload.changed.length > 0 && payload.changed.every((name) => name !== ''), 'changed names no field');
    checkSnapshot(payload, check);
  },
  'content.removed': (payload, check) => {
    checkObject(payload, check);
    check(isPath(payload.path), 'path does not start with /');
    check(payload.removed_uids.includes(payload.uid), 'removed_uids does not contain uid');
    check(payload.removed_uids.every(isUid), 'removed_uids holds something that is not a uid');
  },
  'content.moved': (payload, check) => {
    checkObject(payload, check);
    check(isPath(payload.old_path) && isPath(payload.new_path), 'old_path or new_path does not start with /');
    check(
      isUid(payload.old_parent_uid) && isUid(payload.new_parent_uid),
      'old_parent_uid or new_parent_uid is not a uid',
    );
    const snapshot = checkSnapshot(payload, check);
    if (snapshot) {
      check(snapshot.path === payload.new_path, 'snapshot.path differs from new_path');
      check(snapshot.parent_uid === payload.new_parent_uid, 'snapshot.parent_uid differs from new_parent_uid');
    }
  },
  'content.ordered': (payload, check) => {
    checkObject(payload, check);
    check(isUid(payload.parent_uid), 'parent_uid is not a uid');
    check(isPosition(payload.position), 'position is negative');
    const snapshot = checkSnapshot(payload, check);
    if (snapshot) {
      check(snapshot.parent_uid === payload.parent_uid, 'snapshot.parent_uid differs from parent_uid');
      check(snapshot.position === payload.position, 'snapshot.position differs from position');
    }
  },
  'identity.user.removed': (payload, check) => check(payload.user_id !== '', 'user_id is empty'),
  'identity.group.removed': (payload, check) => check(payload.group_id !== '', 'group_id is empty'),
  'comment.added': (payload, check) => {
    checkComment(payload, check);
    check(payload.in_reply_to === '' || isCommentId(payload.in_reply_to), 'in_reply_to is not a comment id');
    check(['published', 'pending'].includes(payload.review_state), 'review_state is not published or pending');
    check(isInstant(payload.created), 'created is not an instant');
  },
  'comment.modified': (payload, check) => {
    checkComment(payload, check);
    check(isInstant(payload.modified), 'modified is not an instant');
  },
  'comment.removed': (payload, check) => {
    checkComment(payload, check);
    check(payload.removed_ids.includes(payload.comment_id), 'removed_ids does not contain comment_id');
    check(payload.removed_ids.every(isCommentId), 'removed_ids holds something that is not a comment id');
  },
  'comment.published': (payload, check) => checkComment(payload, check),
};

/** What is wrong with an event, in words for the dead-letter log; empty when it is valid. */
export function eventProblems(event: UncheckedEvent): string[] {
  const problems: string[] = [];
  const check: Check = (ok, problem) => {
    if (!ok) problems.push(problem);
  };
  check(event.id !== '', 'id is empty');
  check(isInstant(event.occurredAt), 'occurred_at is not an instant');
  const validate = VALIDATORS[event.type] as (payload: UncheckedEvent['payload'], check: Check) => void;
  validate(event.payload, check);
  return problems;
}
