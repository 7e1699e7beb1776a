import {
  badRequest,
  failStream,
  requestIdOf,
  requestMetadata,
  unary,
  type IdentityServiceHandlers,
  type Logger,
} from '@cms/shared';
import type { AuthenticateRequest__Output } from '@cms/shared';
import type { Authenticator } from '../domain/authenticator';
import type { InvalidationHub } from '../domain/invalidations';
import type { UsersRepository } from '../store/users';

/** Typed RPCs the gateway and other services call. */
export function identityRpcs(
  authenticator: Authenticator,
  users: UsersRepository,
  log: Logger,
  invalidations: InvalidationHub,
): Omit<IdentityServiceHandlers, 'Handle'> {
  return {
    Authenticate: unary(log, async (request: AuthenticateRequest__Output, ctx) => {
      if (request.basic) return authenticator.basic(request.basic.login, request.basic.password, ctx.clientAddress);
      if (request.bearer_token) return authenticator.bearer(request.bearer_token);
      throw badRequest('No credentials given');
    }),
    WatchInvalidations: watchInvalidations(invalidations),
    // GetPrincipal, SearchPrincipals, DescribePrincipals: api/principals-rpc.ts.
  };
}

/**
 * Streams this process's invalidations to one gateway for as long as it
 * listens. Headers go out at once: the gateway trusts its credential cache
 * only while it knows its stream is open.
 */
export function watchInvalidations(hub: InvalidationHub): IdentityServiceHandlers['WatchInvalidations'] {
  return (call) => {
    // Refused before the headers: a gateway trusts its cache from the headers on.
    if (!hub.accepting) {
      const reason = 'identity cannot hear its other replicas';
      failStream(call, Object.assign(new Error(reason), { code: 14 /* UNAVAILABLE */, details: reason }));
      return;
    }
    call.sendMetadata(requestMetadata(requestIdOf(call.metadata)));
    const pending = new Set<() => void>();
    let open = true;
    let detach = () => {};
    // A closed stream takes nothing more; its gateway, disconnected, no longer trusts its cache.
    const finish = () => {
      if (!open) return;
      open = false;
      detach();
      for (const resolve of pending) resolve();
      pending.clear();
    };
    call.on('cancelled', finish);
    call.on('error', finish);
    call.on('close', finish);
    detach = hub.attach({
      write: (invalidation) =>
        new Promise<void>((resolve) => {
          if (!open || call.cancelled) return resolve();
          pending.add(resolve);
          call.write(invalidation, () => {
            pending.delete(resolve);
            resolve();
          });
        }),
      end: () => {
        finish();
        call.end();
      },
      abort: (reason) => {
        finish();
        failStream(call, Object.assign(new Error(reason), { code: 14 /* UNAVAILABLE */, details: reason }));
      },
    });
  };
}
