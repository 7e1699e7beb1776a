import { AppError, type Principal__Output } from '@cms/shared';
import type { Caller } from '../src/domain/caller';
import type { ContentDoc } from '../src/domain/model';
import type { ContentRepository } from '../src/domain/repository';
import type { SubtreeFollower } from '../src/domain/subtree';
import type { TypeRegistry } from '../src/domain/types';
import { WorkflowCommands } from '../src/domain/workflow-commands';
import type { ContentWriter } from '../src/domain/write-path';

const member: Principal__Output = { id: 'mo', roles: ['Member'], groups: [], fullname: '' };
const editor: Principal__Output = { id: 'ed', roles: ['Editor'], groups: [], fullname: '' };
const caller = (principal: Principal__Output | null): Caller => ({
  principal,
  requestId: 'r1',
  publicUrl: 'http://cms.test',
});

/** A dependency the refusals must not reach. */
function unused<T>(name: string): T {
  return new Proxy(
    {},
    {
      get: (_target, member) => {
        throw new Error(`${name}.${String(member)} was used`);
      },
    },
  ) as T;
}

const privateDoc = {
  _id: 'u1',
  path: '/private-doc',
  id: 'private-doc',
  portal_type: 'Document',
  review_state: 'private',
  effective_local_roles: [{ principal: 'owner', roles: ['Owner'] }],
} as ContentDoc;

async function refusal(run: () => Promise<unknown>): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('WorkflowCommands.transition', () => {
  const workflow = new WorkflowCommands(
    unused<ContentRepository>('repo'),
    unused<ContentWriter>('writer'),
    unused<SubtreeFollower>('follower'),
    unused<TypeRegistry>('types'),
  );
  const take = (transition: string, principal: Principal__Output | null) =>
    refusal(() => workflow.transition(privateDoc, transition, {}, caller(principal)));

  it.each(['retract', 'publish', 'fly'])(
    'refuses %s to a caller who may not view the object without naming its state',
    async (transition) => {
      const anonymous = await take(transition, null);
      expect(anonymous.type).toBe('Unauthorized');
      expect(anonymous.message).not.toMatch(/private|state/i);
      const forbidden = await take(transition, member);
      expect(forbidden.type).toBe('Forbidden');
      expect(forbidden.message).not.toMatch(/private|state/i);
    },
  );

  it('tells a caller who may view the object why a transition is not available', async () => {
    const error = await take('retract', editor);
    expect(error.type).toBe('BadRequest');
    expect(error.message).toBe('Transition "retract" is not available from state "private"');
  });
});
