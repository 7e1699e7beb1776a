/**
 * `@linkintegrity?uids=<uid>&uids=...`: before deleting objects, what refers to them. One entry per checked
 * object the caller may view (unknown UIDs are left out), in the order asked: its summary, `items_total` (the
 * objects inside it the caller may view) and `breaches`, the objects outside the deletion that refer to it or
 * to anything inside it, `{@id, uid, title}` each. Referring objects the caller may not view are not named:
 * their number is `breaches_hidden`, a member present only when it is not 0. With the registry's
 * `enable_link_integrity_checks` off the answer is `[]`, as the original platform's.
 */
import { param, urlOf } from '@cms/shared';
import { z } from 'zod';
import { integrityChecks } from '../domain/relations';
import { using } from './declarations';

const { endpoint, operation } = using('references', 'repo', 'serializer');

/** More UIDs than a deletion of one selection would ever name is a mistake, not a request. */
const MAX_UIDS = 1000;

const query = z.object({
  uids: param
    .list()
    .pipe(z.array(z.string().max(64)).min(1, 'Missing parameter "uids"').max(MAX_UIDS, `at most ${MAX_UIDS} UIDs`)),
});

export const linkintegrity = endpoint({
  name: 'linkintegrity',
  service: 'content',
  context: 'content',
  operations: {
    GET: operation({
      summary: 'What refers to the given objects and what is inside them (reference breaches of their deletion)',
      permission: 'Access contents information',
      query,
      handle: async (call, { repo, serializer, references }) => {
        if (!(await references.integrityChecksOn(call.requestId))) return { status: 200, body: [] };
        if (!(await references.caughtUp()))
          call.log.warn('reference index behind the content events; answering with what it has');
        const checks = await integrityChecks(call.query.uids, call.principal, repo, references.references.index);
        const body = checks.map(({ doc, sources, hidden, itemsTotal }) => ({
          ...serializer.summary(doc, call.publicUrl),
          breaches: sources.map((source) => ({
            '@id': urlOf(call.publicUrl, source.path ?? '/'),
            uid: source._id,
            title: source.title,
          })),
          ...(hidden ? { breaches_hidden: hidden } : {}),
          items_total: itemsTotal,
        }));
        return { status: 200, body };
      },
    }),
  },
});
