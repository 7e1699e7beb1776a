import * as grpc from '@grpc/grpc-js';
import {
  AppError,
  createLogger,
  fromServiceError,
  serveEndpoints,
  type HttpRequest__Output,
  type HttpResponse,
  type Principal__Output,
} from '@cms/shared';
import type { ContentDeps } from '../src/api/declarations';
import { workflow as workflowEndpoint } from '../src/api/workflow';
import { accessOf } from '../src/domain/content';
import type { ContentDoc } from '../src/domain/content';
import type { ContentRepository } from '../src/domain/content';
import type { SubtreeFollower } from '../src/domain/tree';
import type { TypeRegistry } from '../src/domain/types';
import { WorkflowCommands } from '../src/domain/workflow';
import type { ContentWriter } from '../src/domain/content';

const member: Principal__Output = { id: 'mo', roles: ['Member'], groups: [], fullname: '' };
const editor: Principal__Output = { id: 'ed', roles: ['Editor'], groups: [], fullname: '' };

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

/** `POST <privateDoc>/@workflow/<transition>` through the dispatcher, which checks View and the transition's guard. */
function dispatchTransition(workflow: WorkflowCommands, transition: string, principal: Principal__Output | null) {
  const handler = serveEndpoints({
    service: 'content',
    endpoints: [workflowEndpoint],
    deps: { workflow } as unknown as ContentDeps,
    contexts: { resolve: async () => ({ context: privateDoc, scope: accessOf(privateDoc) }) },
    logger: createLogger('content', 'silent'),
  });
  const request: HttpRequest__Output = {
    method: 'POST',
    context_path: ['private-doc'],
    endpoint: 'workflow',
    sub_path: [transition],
    query: [],
    body: Buffer.alloc(0),
    principal,
    public_url: 'http://cms.test',
    request_id: 'r1',
    headers: {},
  };
  const rpc = { request, metadata: new grpc.Metadata() } as unknown as grpc.ServerUnaryCall<
    HttpRequest__Output,
    HttpResponse
  >;
  return new Promise<void>((resolve, reject) =>
    handler(rpc, (error) =>
      error
        ? reject(fromServiceError(Object.assign(new Error(error.details ?? ''), error) as grpc.ServiceError, 'r1'))
        : resolve(),
    ),
  );
}

describe('POST @workflow/<transition>', () => {
  const workflow = new WorkflowCommands(
    unused<ContentRepository>('repo'),
    unused<ContentWriter>('writer'),
    unused<SubtreeFollower>('follower'),
    unused<TypeRegistry>('types'),
  );
  const take = (transition: string, principal: Principal__Output | null) =>
    refusal(() => dispatchTransition(workflow, transition, principal));

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
