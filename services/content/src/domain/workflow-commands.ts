import {
  badRequest,
  findTransition,
  newEvent,
  requireHere,
  transitionsFrom,
  urlOf,
  workflowState,
  allowedHere,
  viewTokens,
  type Principal__Output,
} from '@cms/shared';
import { authorize } from './access';
import type { Caller } from './content-commands';
import { snapshot } from './content-commands';
import { contentDate } from './dates';
import { MAX_WRITE_ATTEMPTS, type ContentDoc, type WorkflowEntry } from './model';
import type { ContentRepository, EventRelay } from './repository';
import type { SubtreeFollower } from './subtree';
import { contentType } from './types';

export interface TransitionInput {
  comment?: string;
  effective?: string;
  expires?: string;
  include_children?: boolean;
}

/** `@workflow`: the state of an object, its history, and the transitions the caller may take. */
export class WorkflowCommands {
  constructor(
    private readonly repo: ContentRepository,
    private readonly relay: EventRelay,
    private readonly follower: SubtreeFollower,
    private readonly now: () => Date = () => new Date(),
  ) {}

  status(doc: ContentDoc, principal: Principal__Output | null, publicUrl: string) {
    authorize(principal, 'View', doc);
    const self = `${urlOf(publicUrl, doc.path ?? '/')}/@workflow`;
    if (!doc.review_state) return { '@id': self, history: [], transitions: [] };
    const state = workflowState(doc.review_state);
    return {
      '@id': self,
      history: (doc.workflow_history ?? []).map(serializeEntry),
      state: { id: state.id, title: state.title },
      transitions: this.available(doc, principal).map((t) => ({ '@id': `${self}/${t.id}`, title: t.title })),
    };
  }

  /** Takes a transition; with `include_children`, also on everything below where it is available to the caller. */
  async transition(doc: ContentDoc, transitionId: string, input: TransitionInput, caller: Caller) {
    if (!doc.review_state) throw badRequest(`${doc.portal_type} "${doc.id}" has no workflow`);
    const transition = findTransition(transitionId);
    if (!transition) throw badRequest(`Unknown transition "${transitionId}"`);
    if (!transition.from.includes(doc.review_state)) {
      throw badRequest(`Transition "${transitionId}" is not available from state "${doc.review_state}"`);
    }
    requireHere(caller.principal, transition.guard, doc.review_state, doc.effective_local_roles ?? []);
    const entry = await this.apply(doc, transitionId, input, caller);
    if (input.include_children) {
      for (const child of await this.repo.descendants(doc._id)) {
        const available =
          child.review_state &&
          transition.from.includes(child.review_state) &&
          allowedHere(caller.principal, transition.guard, child.review_state, child.effective_local_roles ?? []);
        if (available) await this.apply(child, transitionId, input, caller);
      }
    }
    return serializeEntry(entry);
  }

  private available(doc: ContentDoc, principal: Principal__Output | null) {
    return transitionsFrom(doc.review_state!).filter((t) =>
      allowedHere(principal, t.guard, doc.review_state, doc.effective_local_roles ?? []),
    );
  }

  private async apply(
    initial: ContentDoc,
    transitionId: string,
    input: TransitionInput,
    caller: Caller,
  ): Promise<WorkflowEntry> {
    const transition = findTransition(transitionId)!;
    let doc = initial;
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const at = this.now().toISOString();
      const entry: WorkflowEntry = {
        action: transition.id,
        actor: caller.principal?.id ?? '',
        comments: input.comment ?? '',
        review_state: transition.to,
        time: at,
      };
      const next: ContentDoc = {
        ...doc,
        review_state: transition.to,
        workflow_history: [...(doc.workflow_history ?? []), entry],
        // Publishing sets the effective date when none was given.
        effective: input.effective ?? doc.effective ?? (transition.to === 'published' ? at : null),
        expires: input.expires ?? doc.expires ?? null,
        version: doc.version + 1,
        // The state decides who may view; the local roles stay as they are.
        allowed: viewTokens(transition.to, doc.effective_local_roles ?? []),
      };
      const event = newEvent(
        'content.modified',
        { uid: doc._id, version: next.version, changed: ['review_state'], snapshot: snapshot(next) },
        caller.requestId,
      );
      const { review_state, workflow_history, effective, expires, version, allowed } = next;
      const fields: Partial<ContentDoc> = { review_state, workflow_history, effective, expires, version, allowed };
      // Files and images in a folder follow its state; the mark lets the sweep finish that after a crash.
      const folderish = contentType(doc.portal_type).folderish;
      if (folderish) fields.subtree_stale = at;
      if (await this.repo.setFields(doc._id, doc.version, fields, event)) {
        await this.relay.flush(doc._id);
        if (folderish) await this.follower.followChildren({ ...next, subtree_stale: at }, caller.requestId);
        return entry;
      }
      const reread = await this.repo.byUid(doc._id);
      if (!reread) throw badRequest('The object was removed meanwhile');
      doc = reread;
    }
    throw badRequest('The object is being changed by others; try again');
  }
}

/** The Workflow entry of the specification (time without zone, convention 5). */
function serializeEntry(entry: WorkflowEntry) {
  return {
    action: entry.action,
    actor: entry.actor,
    comments: entry.comments,
    review_state: entry.review_state,
    time: contentDate(entry.time),
    title: workflowState(entry.review_state).title,
  };
}
