/**
 * Which rules an event triggers: its trigger (a token of `cms.contentrules.events`), the folders it happened in,
 * and each rule's conditions. Pure: the consumer (events/rules-consumer.ts) brings what it looked up.
 */
import type { DomainEvent } from '@cms/shared';
import type { Assignment, FolderAssignments, Rule, RuleElement } from './rules';

const ADDED = 'zope.lifecycleevent.interfaces.IObjectAddedEvent';
const MODIFIED = 'zope.lifecycleevent.interfaces.IObjectModifiedEvent';
const MOVED = 'zope.lifecycleevent.interfaces.IObjectMovedEvent';
const REMOVED = 'zope.lifecycleevent.interfaces.IObjectRemovedEvent';
const TRANSITION = 'Products.CMFCore.interfaces.IActionSucceededEvent';
const COMMENT_ADDED = 'cms.app.discussion.interfaces.ICommentAddedEvent';
const COMMENT_REMOVED = 'cms.app.discussion.interfaces.ICommentRemovedEvent';

/** What a rule is checked against: the event and the object it is about. */
export interface Trigger {
  eventId: string;
  /** A token of `cms.contentrules.events`. */
  event: string;
  uid: string;
  /** The object's path (where it was, for a removal). */
  path: string;
  objectId: string;
  portalType: string | null;
  reviewState: string | null;
  /** The user the event is attributed to (see actorOf), when known. */
  actor: string | null;
}

/** The part of a trigger the event itself says; a comment event's object is looked up (`uid`: the content's). */
export type EventTrigger =
  | { kind: 'content'; trigger: Trigger }
  | { kind: 'comment'; event: string; eventId: string; contentUid: string; actor: string | null };

function lastSegment(path: string): string {
  return path.split('/').filter(Boolean).pop() ?? '';
}

/**
 * The rule trigger of a bus event, or null when no rule event corresponds (orderings; the descendants of a
 * moved folder, which follow it without being moved themselves). A transition is a `content.modified` that
 * changed `review_state`. Events do not say who made the write: an added object's first creator stands for it.
 */
export function triggerOf(event: DomainEvent): EventTrigger | null {
  const base = { eventId: event.id };
  switch (event.type) {
    case 'content.added':
    case 'content.modified':
    case 'content.moved': {
      const p = event.payload;
      const s = p.snapshot;
      let token = ADDED;
      if (event.type === 'content.modified') {
        token = event.payload.changed.includes('review_state') ? TRANSITION : MODIFIED;
      } else if (event.type === 'content.moved') {
        const m = event.payload;
        const anchor = m.old_parent_uid !== m.new_parent_uid || lastSegment(m.old_path) !== lastSegment(m.new_path);
        if (!anchor) return null;
        token = MOVED;
      }
      return {
        kind: 'content',
        trigger: {
          ...base,
          event: token,
          uid: p.uid,
          path: s.path,
          objectId: s.id,
          portalType: s.portal_type,
          reviewState: s.review_state ?? null,
          actor: event.actor ?? (event.type === 'content.added' ? (s.creators[0] ?? null) : null),
        },
      };
    }
    case 'content.removed': {
      const p = event.payload;
      return {
        kind: 'content',
        trigger: {
          ...base,
          event: REMOVED,
          uid: p.uid,
          path: p.path,
          objectId: lastSegment(p.path),
          portalType: null,
          reviewState: null,
          actor: event.actor ?? null,
        },
      };
    }
    case 'comment.added':
      return {
        kind: 'comment',
        ...base,
        event: COMMENT_ADDED,
        contentUid: event.payload.content_uid,
        actor: event.payload.author_username || null,
      };
    case 'comment.removed':
      return { kind: 'comment', ...base, event: COMMENT_REMOVED, contentUid: event.payload.content_uid, actor: null };
    default:
      return null;
  }
}

/** The folders above a path, nearest first: `/a/b/doc` → `/a/b`, `/a`, `/`. */
export function containersOf(path: string): string[] {
  const segments = path.split('/').filter(Boolean);
  const out: string[] = [];
  for (let n = segments.length - 1; n >= 0; n--) out.push('/' + segments.slice(0, n).join('/'));
  return out;
}

/**
 * The assignments that apply, in order: every enabled one of the nearest folder, then those of the folders
 * above that apply to subfolders (`bubbles`); a rule assigned at several levels counts once.
 */
export function applicableAssignments(chain: ReadonlyArray<FolderAssignments | null>): Assignment[] {
  const seen = new Set<string>();
  const out: Assignment[] = [];
  chain.forEach((folder, level) => {
    for (const assignment of folder?.rules ?? []) {
      if (!assignment.enabled || (level > 0 && !assignment.bubbles) || seen.has(assignment.id)) continue;
      seen.add(assignment.id);
      out.push(assignment);
    }
  });
  return out;
}

/** The user an event is attributed to, as identity knows them, for the group and role conditions. */
export interface Actor {
  groups: string[];
  roles: string[];
}

/** Whether every condition of a rule holds for the trigger (all of them, as in the reference). */
export function conditionsHold(rule: Rule, trigger: Trigger, actor: Actor | null): boolean {
  return rule.conditions.every((c) => conditionHolds(c, trigger, actor));
}

function conditionHolds(condition: RuleElement, trigger: Trigger, actor: Actor | null): boolean {
  const v = condition.values;
  const list = (name: string) => (Array.isArray(v[name]) ? (v[name] as string[]) : []);
  switch (condition.type) {
    case 'cms.conditions.PortalType':
      return trigger.portalType !== null && list('check_types').includes(trigger.portalType);
    case 'cms.conditions.FileExtension': {
      // The extension of the object's id, which a file's or image's is made from its file name.
      const dot = trigger.objectId.lastIndexOf('.');
      const extension = dot < 0 ? '' : trigger.objectId.slice(dot + 1);
      return extension !== '' && extension.toLowerCase() === String(v.file_extension ?? '').toLowerCase();
    }
    case 'cms.conditions.WorkflowState':
      return trigger.reviewState !== null && list('wf_states').includes(trigger.reviewState);
    case 'cms.conditions.Group':
      return actor !== null && list('group_names').some((g) => actor.groups.includes(g));
    case 'cms.conditions.Role':
      return actor !== null && list('role_names').some((r) => actor.roles.includes(r));
    default:
      return false;
  }
}

/** Events caused by a rule's actions carry this request id; `~` is refused in a client's request id by the gateway. */
export interface RuleMarker {
  depth: number;
  ruleId: string;
}

export function ruleRequestId(marker: RuleMarker, eventId: string): string {
  return `rule~${marker.depth}~${marker.ruleId}~${eventId}`;
}

export function markerOf(requestId: string | undefined): RuleMarker | null {
  if (!requestId?.startsWith('rule~')) return null;
  const [, depth, ruleId] = requestId.split('~');
  return { depth: Number(depth) || 0, ruleId: ruleId ?? '' };
}
