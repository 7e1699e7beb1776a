import type { RequestContext } from '@cms/shared';
import type { Caller } from '../domain/content-commands';

export function callerOf(ctx: RequestContext): Caller {
  return { principal: ctx.principal, requestId: ctx.requestId, publicUrl: ctx.publicUrl };
}
