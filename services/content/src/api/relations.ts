/**
 * `@relations` on the site root, as the original platform's and Volto's relations control panel use it:
 * - `GET` without `source`, `target`, `relation` or `onlyBroken`: `{@id, stats, broken}`, the number of
 *   relations of each name the caller may see and of broken ones (target gone);
 * - `GET ?source=&target=&relation=` (UID or site path; any combination; `max`, `query_source`, `query_target`
 *   narrow it): `{@id, relations: {<name>: {items: [{source, target}], items_total}}}`, with `readonly` and
 *   `staticCatalogVocabularyQuery` when a relation name is given; 404 for a source or target that is not there;
 * - `GET ?onlyBroken=true`: the broken relations by name, `[source URL, target as stored]` each; 204 when none;
 * - `POST {items: [{source, target, relation}]}` adds relations to the sources' relation fields, `DELETE` with
 *   the same body removes them, or with `{source?, target?, relation?}` every one that matches (204). An item
 *   that fails is a 400 naming it, and nothing is written (the original platform answers 422 and writes the
 *   others); links in text and blocks (`isReferencing`) are read-only;
 * - `POST @relations/rebuild` recomputes the reference index from the content store (Managers; 204).
 * `query_source` / `query_target` starting with `/` keep the relations whose end is at or below that path;
 * otherwise those whose end's title contains every word given (the original platform runs a full-text search).
 */
import { badRequest, hasPermission, notFound, param, requirePermission, type EndpointCall } from '@cms/shared';
import { z } from 'zod';
import { accessOf } from '../domain/content';
import { LINK_RELATION } from '../domain/relations';
import type { ContentDoc } from '../domain/content';
import type { Relation } from '../domain/relations';
import { callerOf } from './caller';
import { using, type ContentDeps } from './declarations';

const { endpoint, operation } = using('references', 'serializer');

const ref = z.string().min(1).max(2000);
const relationName = z.string().min(1).max(200);

const query = z.object({
  source: param.string().pipe(ref).optional(),
  target: param.string().pipe(ref).optional(),
  relation: param.string().pipe(relationName).optional(),
  max: param.int({ min: 1, max: 100_000 }).optional(),
  onlyBroken: param.boolean().optional(),
  query_source: param.string().pipe(ref).optional(),
  query_target: param.string().pipe(ref).optional(),
});

const item = z.object({ source: ref, target: ref, relation: relationName }).strict();
const items = z.array(item).min(1).max(1000);

/** `POST @relations` takes `items`; `POST @relations/rebuild` an optional `flush`, which changes nothing here. */
const postBody = z
  .object({ items: items.optional(), flush: z.union([z.boolean(), z.number(), z.string().max(10)]).optional() })
  .strict();

const deleteBody = z
  .object({
    items: items.optional(),
    source: ref.optional(),
    target: ref.optional(),
    relation: relationName.optional(),
  })
  .strict()
  .refine((b) => b.items || b.source || b.target || b.relation, {
    message: 'Name the relations to delete: "items", or any of "source", "target", "relation"',
  });

export const relations = endpoint({
  name: 'relations',
  service: 'content',
  context: 'site-root',
  operations: {
    GET: operation({
      summary: 'Relations between objects (relation fields, links in text), or their statistics',
      permission: 'View',
      query,
      handle: async (call, deps) => {
        const { relations: found } = deps.references;
        if (!(await deps.references.caughtUp()))
          call.log.warn('reference index behind the content events; answering with what it has');
        const self = `${call.publicUrl}/@relations${queryString(call)}`;
        const q = call.query;
        if (q.onlyBroken) {
          const broken = await found.broken(call.principal, q.relation);
          if (!broken.length) return { status: 204 };
          const byName: Record<string, { items: string[][]; items_total: number }> = {};
          for (const b of broken) {
            const entry = (byName[b.relation] ??= { items: [], items_total: 0 });
            entry.items.push([`${call.publicUrl}${b.source.path === '/' ? '' : (b.source.path ?? '')}`, b.target]);
            entry.items_total += 1;
          }
          return { status: 200, body: { '@id': self, relations: byName } };
        }
        if (!q.source && !q.target && !q.relation && !q.query_source && !q.query_target) {
          return { status: 200, body: { '@id': self, ...(await found.stats(call.principal)) } };
        }
        const source = q.source ? await visibleEnd(q.source, call, deps, 'Source') : undefined;
        const target = q.target ? await visibleEnd(q.target, call, deps, 'Target') : undefined;
        const listed = await found.list(
          {
            source,
            target,
            relation: q.relation,
            max: q.max,
            sourceMatches: q.query_source ? matcher(q.query_source) : undefined,
            targetMatches: q.query_target ? matcher(q.query_target) : undefined,
          },
          call.principal,
        );
        const byName: Record<string, Record<string, unknown>> = {};
        for (const relation of listed) {
          const entry = (byName[relation.relation] ??= { items: [] as unknown[], items_total: 0 });
          (entry.items as unknown[]).push(relationJson(relation, call.publicUrl, deps));
          entry.items_total = (entry.items as unknown[]).length;
        }
        if (q.relation) {
          byName[q.relation] = {
            ...(byName[q.relation] ?? { items: [], items_total: 0 }),
            readonly: q.relation === LINK_RELATION,
            staticCatalogVocabularyQuery: null,
          };
        }
        return { status: 200, body: { '@id': self, relations: byName } };
      },
    }),
    POST: operation({
      summary: "Adds relations to the sources' relation fields; `@relations/rebuild` recomputes the index",
      paths: ['', 'rebuild'],
      // On the site root, as the original platform; each source is checked again, as the write path does.
      permission: 'Modify portal content',
      body: postBody,
      handle: async (call, deps) => {
        if (call.request.sub_path[0] === 'rebuild') {
          requirePermission(call.principal, 'cms.ManagePortal', accessOf(call.context));
          const rebuilt = await deps.references.references.rebuild();
          call.log.info(rebuilt, 'reference index rebuilt');
          return { status: 204 };
        }
        if (!call.body.items) throw missingItems();
        await deps.references.relations.create(call.body.items, callerOf(call));
        return { status: 204 };
      },
    }),
    DELETE: operation({
      summary: 'Removes the relations listed in `items`, or every one matching `source`, `target`, `relation`',
      permission: 'Modify portal content',
      body: deleteBody,
      handle: async (call, deps) => {
        const { relations: found } = deps.references;
        const caller = callerOf(call);
        if (call.body.items) {
          await found.delete(call.body.items, caller);
          return { status: 204 };
        }
        const { source, target, relation } = call.body;
        await found.deleteMatching(
          {
            source: source ? await visibleEnd(source, call, deps, 'Source') : undefined,
            target: target ? await visibleEnd(target, call, deps, 'Target') : undefined,
            relation,
          },
          caller,
        );
        return { status: 204 };
      },
    }),
  },
});

type AnyCall = EndpointCall<ContentDoc, unknown, unknown, unknown>;

/** The object a reference names when the caller may view it; 404 otherwise (hidden is as good as missing). */
async function visibleEnd(
  ref: string,
  call: AnyCall,
  deps: Pick<ContentDeps, 'references'>,
  what: string,
): Promise<ContentDoc> {
  const doc = await deps.references.relations.find(ref, call.publicUrl);
  if (!doc || !hasPermission(call.principal, 'View', accessOf(doc))) throw notFound(`${what} not found`);
  return doc;
}

function relationJson(relation: Relation, publicUrl: string, { serializer }: Pick<ContentDeps, 'serializer'>) {
  const end = (doc: ContentDoc) => ({ ...serializer.summary(doc, publicUrl), UID: doc._id });
  return { source: end(relation.source), target: end(relation.target) };
}

/** `query_source` / `query_target`: at or below a site path, or every word in the title. */
function matcher(text: string): (doc: ContentDoc) => boolean {
  if (text.startsWith('/')) {
    const path = text.replace(/\/+$/, '') || '/';
    return (doc) => path === '/' || doc.path === path || (doc.path ?? '').startsWith(`${path}/`);
  }
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  return (doc) => words.every((word) => doc.title.toLowerCase().includes(word));
}

/** The query as sent, for `@id` (site paths keep their slashes, as the original platform shows them). */
function queryString(call: AnyCall): string {
  const pairs = call.request.query.map(
    ({ key, value }) => `${encodeURIComponent(key)}=${encodeURIComponent(value).replace(/%2F/g, '/')}`,
  );
  return pairs.length ? `?${pairs.join('&')}` : '';
}

function missingItems() {
  return badRequest('Name the relations to add: "items", a list of {source, target, relation}');
}
