import {
  RULES_GROUP,
  type ConsumerGroup,
  type DomainEvent,
  type EventBus,
  type Logger,
  type Subscription,
} from '@cms/shared';
import {
  applicableAssignments,
  conditionsHold,
  containersOf,
  markerOf,
  triggerOf,
  type Actor,
  type Trigger,
} from '../domain/rule-matching';
import type { ContentObjects, ExecutionStore, RuleRunner } from '../domain/rule-runner';
import type { RuleStore } from '../domain/rules';

/** Every queue config consumes, for the bus of a process that runs config to declare up front. */
export const CONFIG_CONSUMER_GROUPS: ConsumerGroup[] = [RULES_GROUP];

/** Rule actions that lead to rules that lead to rules: past this many, their events trigger nothing. */
const MAX_CASCADE_DEPTH = 3;

export interface RulesConsumerDeps {
  rules: RuleStore;
  executions: ExecutionStore;
  content: ContentObjects;
  runner: RuleRunner;
  /** The groups and roles of a user (the group and role conditions); absent: those conditions do not hold. */
  actors?: (userId: string, requestId: string) => Promise<Actor | null>;
  log: Logger;
}

/**
 * Records the executions an event triggers, then acknowledges it; the runner takes their actions apart from
 * the delivery (an action writes content, whose own events this bus must be free to deliver meanwhile).
 */
export function subscribeRules(bus: EventBus, deps: RulesConsumerDeps): Promise<Subscription> {
  return bus.subscribe({ ...RULES_GROUP, prefetch: 8 }, async ({ event }) => {
    if ((await recordExecutions(event, deps)) > 0) deps.runner.kick();
  });
}

/**
 * Why content does not bear a content event out, or undefined when it does: anyone who can publish could forge
 * one, and a rule's actions (delete, move, copy...) act on the object it names. A removed object must be gone; any
 * other must be where the event says, of its type, at its version or later. An object moved away before its event
 * was handled triggers no rule of the folder it left (its move triggers its own). Fails while content does not
 * answer, so the event is redelivered.
 */
async function unconfirmed(
  event: DomainEvent,
  trigger: Trigger,
  content: RulesConsumerDeps['content'],
  requestId: string,
): Promise<string | undefined> {
  const current = await content.byUid(trigger.uid, requestId);
  if (event.type === 'content.removed')
    return current ? 'removal names an object content still has; no rule triggered' : undefined;
  if (!current) return 'event names an object content does not have; no rule triggered';
  const version = 'snapshot' in event.payload ? event.payload.version : 0;
  if (current.path !== trigger.path || current.portal_type !== trigger.portalType || current.version < version)
    return 'event does not match the object as content has it; no rule triggered';
  return undefined;
}

/** How many executions the event added (none for one already handled: a redelivery). */
export async function recordExecutions(event: DomainEvent, deps: RulesConsumerDeps): Promise<number> {
  const found = triggerOf(event);
  if (!found) return 0;
  // Events of rule actions trigger rules only when the rule that acted is cascading, never that rule again.
  const marker = markerOf(event.requestId);
  if (marker) {
    if (marker.depth >= MAX_CASCADE_DEPTH) return 0;
    const cause = await deps.rules.get(marker.ruleId);
    if (!cause?.cascading) return 0;
  }
  if (!(await deps.rules.anyAssigned())) return 0;
  const requestId = event.requestId ?? event.id;

  let trigger: Trigger;
  if (found.kind === 'comment') {
    const commented = await deps.content.byUid(found.contentUid, requestId);
    if (!commented) return 0;
    trigger = {
      eventId: found.eventId,
      event: found.event,
      uid: commented.uid,
      path: commented.path,
      objectId: commented.id,
      portalType: commented.portal_type,
      reviewState: commented.review_state ?? null,
      actor: found.actor,
    };
  } else {
    const refusal = await unconfirmed(event, found.trigger, deps.content, requestId);
    if (refusal) {
      deps.log.warn({ requestId, eventId: event.id, eventType: event.type, uid: found.trigger.uid }, refusal);
      return 0;
    }
    trigger = found.trigger;
  }

  const chain = await Promise.all(
    containersOf(trigger.path).map(async (path) => {
      const key = path === '/' ? '/' : (await deps.content.byPath(path, requestId))?.uid;
      return key === undefined ? null : deps.rules.assignmentsOf(key);
    }),
  );
  let actor: Actor | null | undefined;
  let added = 0;
  for (const assignment of applicableAssignments(chain)) {
    if (assignment.id === marker?.ruleId) continue;
    const rule = await deps.rules.get(assignment.id);
    if (!rule?.enabled || rule.event !== trigger.event) continue;
    const needsActor = rule.conditions.some(
      (c) => c.type === 'cms.conditions.Group' || c.type === 'cms.conditions.Role',
    );
    if (needsActor && actor === undefined) {
      actor = trigger.actor && deps.actors ? await deps.actors(trigger.actor, requestId) : null;
    }
    if (!conditionsHold(rule, trigger, actor ?? null)) continue;
    const recorded = await deps.executions.record({
      _id: `${rule._id}~${event.id}`,
      ruleId: rule._id,
      depth: marker ? marker.depth : 0,
      trigger,
      actions: rule.actions,
      next: 0,
      done: false,
      at: new Date().toISOString(),
    });
    if (recorded) added++;
    deps.log.debug({ rule: rule._id, eventId: event.id, recorded }, 'content rule triggered');
    // `stop`: no further rule runs for this event.
    if (rule.stop) break;
  }
  return added;
}
