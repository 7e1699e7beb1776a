import {
  AppError,
  badRequest,
  findTransition,
  hasPermission,
  transitionsFrom,
  UNTRANSLATED,
  urlOf,
  viewTokens,
  workflowState,
  type Permission,
  type Principal__Output,
  type Translate,
  type WorkflowTransition,
} from '@cms/shared';
import { accessOf } from '../content/access';
import type { Caller } from '../content/caller';
import { modifiedEvent } from '../content/content-events';
import { contentDate } from '../content/dates';
import type { ContentDoc, PendingTransition, WorkflowEntry } from '../content/model';
import type { ContentRepository } from '../content/repository';
import { STALE_GRACE_MS, type SubtreeFollower } from '../tree/subtree';
import type { TypeRegistry } from '../types';
import type { ContentWriter } from '../content/write-path';

export interface TransitionInput {
  comment?: string;
  effective?: string;
  expires?: string;
  include_children?: boolean;
}

/** The guard of the workflow's `review_history` variable. */
const HISTORY_READERS = ['Request review', 'Review portal content'] as const;

/** `@workflow`: the state of an object, its history, and the transitions the caller may take. */
export class WorkflowCommands {
  constructor(
    private readonly repo: ContentRepository,
    private readonly writer: ContentWriter,
    private readonly follower: SubtreeFollower,
    private readonly types: TypeRegistry,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * `translate` gives the state and transition titles in the caller's language. Who may view `doc` is its
   * caller's check: the dispatcher's for `@workflow`, the serializer's for a component of an object it shows.
   */
  status(doc: ContentDoc, principal: Principal__Output | null, publicUrl: string, translate: Translate) {
    const self = `${urlOf(publicUrl, doc.path ?? '/')}/@workflow`;
    if (!doc.review_state) return { '@id': self, history: [], transitions: [] };
    const state = workflowState(doc.review_state);
    return {
      '@id': self,
      // As the original's `review_history`: only for those who may request or give a review (review comments and
      // actors are not every viewer's to read); others get none.
      history: HISTORY_READERS.some((permission) => hasPermission(principal, permission, accessOf(doc)))
        ? (doc.workflow_history ?? []).map((entry) => serializeEntry(entry, translate))
        : [],
      state: { id: state.id, title: translate(state.title) },
      transitions: this.available(doc, principal).map((t) => ({ '@id': `${self}/${t.id}`, title: translate(t.title) })),
    };
  }

  /**
   * Takes a transition; with `include_children`, also on everything below that the caller may view and where the
   * transition is available to them (what they may not view stays as it is, as it would if they asked one by one).
   */
  async transition(
    doc: ContentDoc,
    transitionId: string,
    input: TransitionInput,
    caller: Caller,
    translate: Translate = UNTRANSLATED.translate,
  ) {
    // The refusals below name the object's state: only to a caller who may see it, as the dispatcher checked
    // (`@workflow`), or a content rule's own actor.
    if (!doc.review_state) throw badRequest(`${doc.portal_type} "${doc.id}" has no workflow`);
    const transition = findTransition(transitionId);
    if (!transition) throw badRequest(`Unknown transition "${transitionId}"`);
    checkAvailable(transition, doc);
    this.writer.checkPermission(doc, transition.guard, caller);
    const { entry, after } = await this.apply(doc, transition, input, caller, input.include_children === true);
    if (after.transition_pending) await this.takeBelow(after, after.transition_pending);
    return serializeEntry(entry, translate);
  }

  /**
   * The permission taking `transitionId` on `doc` needs: the transition's guard where it is one available from
   * the object's state; else View, and `transition` answers 400 (no workflow, no such transition, not from here),
   * so that a caller learns of a refusal only where the transition could be taken.
   */
  permissionFor(doc: ContentDoc, transitionId: string | undefined): Permission {
    const transition = transitionId === undefined ? undefined : findTransition(transitionId);
    if (!transition || !doc.review_state || !transition.from.includes(doc.review_state)) return 'View';
    return transition.guard;
  }

  /**
   * The subtree part of an `include_children` transition: each object below that the caller may view and where
   * the transition is available to them takes it, each in its own atomic write; then the mark goes. Taking a
   * transition again where it was taken finds it no longer available, so a walk cut short is simply run again.
   */
  private async takeBelow(anchor: ContentDoc, pending: PendingTransition): Promise<void> {
    const transition = findTransition(pending.transition);
    if (transition) {
      const caller: Caller = { principal: pending.principal, requestId: pending.requestId, publicUrl: '' };
      const input: TransitionInput = {
        comment: pending.comment,
        effective: pending.effective,
        expires: pending.expires,
      };
      for (const child of await this.repo.descendants(anchor._id)) {
        const available =
          child.review_state &&
          transition.from.includes(child.review_state) &&
          hasPermission(caller.principal, 'View', accessOf(child)) &&
          hasPermission(caller.principal, transition.guard, accessOf(child));
        if (available) await this.apply(child, transition, input, caller, false).catch(skipUnchangeable);
      }
    }
    await this.repo.clearTransitionPending(anchor._id, pending.at);
  }

  /**
   * Finishes `include_children` transitions a crash or a failed request left behind, marked at least `graceMs`
   * before `now`; returns how many.
   */
  async sweep(now: Date, graceMs = STALE_GRACE_MS): Promise<number> {
    const before = new Date(now.getTime() - graceMs).toISOString();
    const pending = await this.repo.pendingTransitions(before);
    for (const anchor of pending) await this.takeBelow(anchor, anchor.transition_pending!);
    return pending.length;
  }

  private available(doc: ContentDoc, principal: Principal__Output | null) {
    return transitionsFrom(doc.review_state!).filter((t) => hasPermission(principal, t.guard, accessOf(doc)));
  }

  /** One object takes the transition; with `markSubtree`, the write also marks the subtree to follow. */
  private async apply(
    doc: ContentDoc,
    transition: WorkflowTransition,
    input: TransitionInput,
    caller: Caller,
    markSubtree: boolean,
  ): Promise<{ entry: WorkflowEntry; after: ContentDoc }> {
    // Files and images in a folder follow its state; the stale mark lets the sweep finish that after a crash.
    const folderish = this.types.get(doc.portal_type).folderish;
    let entry: WorkflowEntry | undefined;
    const written = await this.writer.write(
      doc,
      {
        kind: 'transition',
        permission: transition.guard,
        plan: (current) => {
          checkAvailable(transition, current);
          const at = this.now().toISOString();
          entry = {
            action: transition.id,
            actor: caller.principal?.id ?? '',
            comments: input.comment ?? '',
            review_state: transition.to,
            time: at,
          };
          const set: Partial<ContentDoc> = {
            review_state: transition.to,
            workflow_history: [...(current.workflow_history ?? []), entry],
            // Publishing sets the effective date when none was given.
            effective: input.effective ?? current.effective ?? (transition.to === 'published' ? at : null),
            expires: input.expires ?? current.expires ?? null,
            // The state decides who may view; the local roles stay as they are.
            allowed: viewTokens(transition.to, current.effective_local_roles ?? []),
          };
          if (folderish) set.subtree_stale = at;
          if (markSubtree) {
            const { comment, effective, expires } = input;
            set.transition_pending = {
              at,
              transition: transition.id,
              // Only the members given: a store may keep an undefined member as null.
              ...(comment === undefined ? {} : { comment }),
              ...(effective === undefined ? {} : { effective }),
              ...(expires === undefined ? {} : { expires }),
              principal: caller.principal,
              requestId: caller.requestId,
            };
          }
          return { set, events: (next) => [modifiedEvent(next, ['review_state'], caller.requestId)] };
        },
      },
      caller,
    );
    if (folderish) await this.follower.followChildren(written.after, caller.requestId);
    return { entry: entry!, after: written.after };
  }
}

/**
 * A descendant that was removed, changed state, or was locked by someone else since the walk listed it stays as
 * it is, as it would if the caller had asked for it alone; anything else fails the walk, which the sweep resumes.
 */
function skipUnchangeable(error: unknown): void {
  const skipped = ['NotFound', 'BadRequest', 'Forbidden', 'Unauthorized'];
  if (error instanceof AppError && skipped.includes(error.type)) return;
  throw error;
}

function checkAvailable(transition: WorkflowTransition, doc: ContentDoc): void {
  if (!doc.review_state || !transition.from.includes(doc.review_state)) {
    throw badRequest(`Transition "${transition.id}" is not available from state "${doc.review_state}"`);
  }
}

/** The Workflow entry of the specification (time without zone, convention 5). */
function serializeEntry(entry: WorkflowEntry, translate: Translate = UNTRANSLATED.translate) {
  return {
    action: entry.action,
    actor: entry.actor,
    comments: entry.comments,
    review_state: entry.review_state,
    time: contentDate(entry.time),
    title: translate(workflowState(entry.review_state).title),
  };
}
