import { badRequest, clip, notFound, unary, type Logger } from '@cms/shared';
import type { ContentServiceHandlers } from '@cms/shared';
import type { Caller } from '../domain/content';
import type { ContentDoc } from '../domain/content';
import type { ContentDeps } from './declarations';

/**
 * The actor of content rules: the site's managers configured the rule, so its actions are taken with their
 * rights, whoever triggered it (as the reference's rule actions do), through the same write path as a request.
 */
const RULE_ACTOR = { id: 'content-rules', roles: ['Manager'], groups: [], fullname: 'Content rules' };

/** The rule actions taken, by their key: a runner asking again after a crash gets the first answer. */
export interface AppliedRuleActions {
  answerOf(key: string): Promise<string | null>;
  record(key: string, path: string): Promise<void>;
}

/**
 * `ApplyRuleAction`: the content actions of content rules (move, copy, delete, workflow transition, version).
 * An action asked for again under its key (the rules runner crashed before recording it done) is not taken
 * again. A crash of content itself between an action's commit and its record would still repeat it.
 */
export function ruleActionRpcs(
  deps: ContentDeps,
  applied: AppliedRuleActions,
  log: Logger,
): Pick<ContentServiceHandlers, 'ApplyRuleAction'> {
  return {
    ApplyRuleAction: unary(log, async (request: ApplyRuleActionInput, ctx) => {
      const key = request.action_key;
      const earlier = key ? await applied.answerOf(key) : null;
      if (earlier !== null) {
        log.info({ requestId: ctx.requestId, actionKey: key }, 'content rule action already taken; not repeated');
        return { path: earlier };
      }
      const answer = await take(deps, request, ctx.requestId, log);
      if (key) await applied.record(key, answer.path);
      return answer;
    }),
  };
}

async function take(
  deps: ContentDeps,
  request: ApplyRuleActionInput,
  requestId: string,
  log: Logger,
): Promise<{ path: string }> {
  const doc = await deps.repo.byUid(request.uid);
  if (!doc) throw notFound(`No content with UID ${clip(request.uid)}`);
  // Its request id carries the rule's marker onto the events the action causes.
  const caller: Caller = { principal: RULE_ACTOR, requestId, publicUrl: '' };
  switch (request.action) {
    case 'move': {
      const [moved] = await deps.tree.move(await targetOf(deps, request.target), [doc._id], caller);
      return { path: moved?.target ?? '' };
    }
    case 'copy': {
      const [copied] = await deps.tree.copy(await targetOf(deps, request.target), [doc._id], caller);
      return { path: copied?.target ?? '' };
    }
    case 'delete':
      await deps.commands.remove(doc, caller);
      return { path: '' };
    case 'transition':
      await deps.workflow.transition(doc, request.transition, { comment: request.comment }, caller);
      return { path: doc.path ?? '/' };
    case 'version':
      if (!(await deps.history.keepVersion(doc, request.comment, caller))) {
        log.info({ requestId, uid: doc._id }, 'content rule: the object keeps no versions');
      }
      return { path: doc.path ?? '/' };
    default:
      throw badRequest(`Unknown rule action "${clip(request.action)}"`);
  }
}

/** `cms.content.v1.ApplyRuleActionRequest`. */
interface ApplyRuleActionInput {
  uid: string;
  action: string;
  target: string;
  transition: string;
  comment: string;
  action_key: string;
}

async function targetOf(deps: ContentDeps, target: string): Promise<ContentDoc> {
  const doc = target.startsWith('/') ? await deps.repo.byPath(target) : await deps.repo.byUid(target);
  if (!doc) throw badRequest(`The target folder ${clip(target)} does not exist`);
  return doc;
}
