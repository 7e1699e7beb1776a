/** A content object as `GET` on it answers: the serialization with its items, neighbours, relations, components. */
import {
  batchingLinks,
  callerTokens,
  DEFAULT_BATCH_SIZE,
  EndpointCall,
  hasPermission,
  QueryParams,
  urlOf,
  type Logger,
  type Principal__Output,
  type Translate,
} from '@cms/shared';
import { accessOf } from '../domain/content';
import { linkTargetsOf } from '../domain/relations';
import { lockJson } from '../domain/locks';
import type { ContentDoc } from '../domain/content';
import type { Listing } from '../domain/content';
import { callerOf } from './caller';
import type { ContentDeps } from './declarations';

/** The query members of a content response: batching of `items`, their extra columns, and `expand`. */
export interface RenderQuery {
  b_start?: number;
  b_size?: number;
  metadata_fields?: string[];
  include_items?: boolean;
  fullobjects?: boolean;
}

type RenderCall = EndpointCall<unknown, unknown, RenderQuery | undefined, unknown>;

/** The collaborators rendering a content object uses: an endpoint that renders one uses them (`using(...RENDERING)`). */
export const RENDERING = [
  'collections',
  'commands',
  'directory',
  'expansion',
  'locks',
  'repo',
  'serializer',
  'settings',
  'types',
  'workingCopies',
] as const;
export type RenderDeps = Pick<ContentDeps, (typeof RENDERING)[number]>;

export async function renderContent(
  call: RenderCall,
  doc: ContentDoc,
  deps: RenderDeps,
  knownParent?: ContentDoc | null,
): Promise<Record<string, unknown>> {
  return (await renderContentAnswer(call, doc, deps, knownParent)).body;
}

/**
 * The serialization and what it shows beyond the object: `neighbours` when it shows the object's neighbours in
 * its folder (the gateway's cache then drops it on a write to any sibling: NEIGHBOURS_HEADER), and `shows`, the
 * paths of the other objects it shows (relation and link targets, visible or not: a change of state may show one),
 * so that a write to any of them drops it too (SHOWS_HEADER).
 */
export async function renderContentAnswer(
  call: RenderCall,
  doc: ContentDoc,
  deps: RenderDeps,
  knownParent?: ContentDoc | null,
  items: 'as-asked' | 'summaries' = 'as-asked',
): Promise<{ body: Record<string, unknown>; neighbours: boolean; shows: string[] }> {
  const type = deps.types.get(doc.portal_type);
  const parent = knownParent === undefined ? await deps.commands.parentOf(doc) : knownParent;
  const includeItems = type.folderish && call.query?.include_items !== false;
  const [listing, neighbours, related, expanded, lock, workingCopy, results, settings] = await Promise.all([
    includeItems ? listChildren(call, doc, deps) : null,
    neighboursOf(call, doc, parent, deps),
    relatedOf(call, doc, deps),
    deps.expansion.componentsOf(call, doc),
    renderLock(call, doc, deps),
    deps.workingCopies.references(doc, callerOf(call)),
    type.behaviors.includes('cms.collection') ? collectionResults(call, doc, deps) : null,
    deps.settings.current(call.requestId),
  ]);
  const linkTargets = await linkTargetsOf(doc.fields ?? {}, type, (uids) => deps.repo.byUids(uids));
  const body = deps.serializer.serialize(doc, {
    publicUrl: call.publicUrl,
    principal: call.principal,
    parent,
    listing,
    neighbours,
    related: related.visible,
    lock,
    workingCopy,
    linkTargets,
    scaleSizes: settings.scaleSizes,
    components: expanded,
  });
  // As the original serializes it: whether comments are on for this object now (addendum §3), not the stored
  // choice, so that a client offers comments only where `@comments` answers.
  if ('allow_discussion' in body) {
    const own = doc.fields?.allow_discussion;
    body.allow_discussion =
      settings.discussionEnabled && (typeof own === 'boolean' ? own : type.allowDiscussion === true);
  }
  const shows = [...related.paths, ...linkTargets.values()];
  // `fullobjects`: each item of this batch serialized whole, their own items as summaries (no deeper).
  if (listing && items === 'as-asked' && call.query?.fullobjects === true) {
    body.items = await Promise.all(
      listing.items.map(async (child) => {
        const rendered = await renderContentAnswer(call, child, deps, doc, 'summaries');
        shows.push(...rendered.shows);
        return rendered.body;
      }),
    );
  }
  return {
    // In place: copying a body of some forty members cost ~6 µs per GET.
    body: withTranslatedTypeTitles(results ? Object.assign(body, results) : body, call.translator.translate),
    neighbours: neighbours !== null,
    shows,
  };
}

/** Members that hold summaries of other objects, each with a `type_title`. */
const SUMMARY_MEMBERS = ['parent', 'items', 'relatedItems', 'previous_item', 'next_item'];

/** The `type_title` of the object and of the summaries it holds, in the caller's language. */
function withTranslatedTypeTitles(body: Record<string, unknown>, translate: Translate): Record<string, unknown> {
  const translateIn = (value: unknown) => {
    if (value === null || typeof value !== 'object') return;
    const summary = value as Record<string, unknown>;
    if (typeof summary.type_title === 'string') summary.type_title = translate(summary.type_title);
  };
  translateIn(body);
  for (const member of SUMMARY_MEMBERS) {
    const value = body[member];
    if (Array.isArray(value)) value.forEach(translateIn);
    else translateIn(value);
  }
  return body;
}

/** A Collection's `items`: its query's results as the caller may see them, asked of search, batched. */
async function collectionResults(call: RenderCall, doc: ContentDoc, deps: RenderDeps) {
  const { collections } = deps;
  const batch = { start: call.query?.b_start ?? 0, size: call.query?.b_size ?? DEFAULT_BATCH_SIZE };
  const fields = doc.fields ?? {};
  const { items, items_total } = await collections.results({
    query: Array.isArray(fields.query) ? fields.query : [],
    contextPath: doc.path ?? '/',
    sortOn: typeof fields.sort_on === 'string' && fields.sort_on ? fields.sort_on : null,
    sortReversed: fields.sort_reversed === true,
    limit: typeof fields.limit === 'number' ? fields.limit : 1000,
    start: batch.start,
    size: batch.size,
    principal: call.principal,
    requestId: call.requestId,
  });
  const url = urlOf(call.publicUrl, doc.path ?? '/');
  const body: Record<string, unknown> = {
    items: call.query?.fullobjects
      ? await fullObjects(
          call,
          items.map((item) => item.path),
          deps,
        )
      : items.map((item) => ({
          '@id': urlOf(call.publicUrl, item.path),
          '@type': item.portal_type,
          description: item.description,
          review_state: item.review_state ?? null,
          title: item.title,
          type_title: item.type_title,
        })),
    items_total,
  };
  const batching = batchingLinks(url, call.request.query, batch, items_total);
  if (batching) body.batching = batching;
  return body;
}

/**
 * The objects at `paths` as a plain GET of each by the caller answers it (a Collection's `fullobjects`); what is
 * gone or hidden from the caller since the catalog listed it is left out.
 */
async function fullObjects(call: RenderCall, paths: string[], deps: RenderDeps) {
  const docs = await Promise.all(paths.map((path) => deps.repo.byPath(path)));
  const rendered = await Promise.all(
    docs.map((doc) =>
      doc && hasPermission(call.principal, 'View', accessOf(doc))
        ? renderContent(plainGet(call, doc.path ?? '/'), doc, deps)
        : null,
    ),
  );
  return rendered.filter((body) => body !== null);
}

/** A plain `GET` of the object at `path` by `principal`, so that its serialization is what that GET would answer. */
export function plainGet(
  from: { principal: Principal__Output | null; publicUrl: string; requestId: string; log: Logger },
  path: string,
) {
  const request = {
    method: 'GET',
    context_path: path.split('/').filter(Boolean),
    endpoint: '',
    sub_path: [],
    query: [],
    body: Buffer.alloc(0),
    principal: from.principal,
    public_url: from.publicUrl,
    request_id: from.requestId,
    headers: {},
  };
  return new EndpointCall(request, from.requestId, from.log, null, {}, {}, undefined, new QueryParams([]));
}

/** The object's lock as `@lock` and the `lock` member show it, with its holder's name from identity. */
export async function renderLock(
  call: EndpointCall<unknown, unknown, unknown, unknown>,
  doc: ContentDoc,
  { locks, directory }: Pick<ContentDeps, 'locks' | 'directory'>,
): Promise<Record<string, unknown>> {
  const lock = locks.current(doc);
  const caller = {
    principalId: call.principal?.id ?? null,
    lockToken: call.header('lock-token'),
    publicUrl: call.publicUrl,
  };
  if (!lock) return lockJson(null, caller);
  const [holder] = await directory.describe([lock.creator], call.requestId);
  return lockJson(lock, { ...caller, creatorName: holder?.title || lock.creator });
}

async function listChildren(call: RenderCall, doc: ContentDoc, { repo }: Pick<ContentDeps, 'repo'>): Promise<Listing> {
  const batch = { start: call.query?.b_start ?? 0, size: call.query?.b_size ?? DEFAULT_BATCH_SIZE };
  const viewer = callerTokens(call.principal);
  const [items, total] = await Promise.all([
    repo.children(doc._id, viewer, batch.start, batch.size),
    repo.countChildren(doc._id, viewer),
  ]);
  return {
    items,
    total,
    batching: batchingLinks(urlOf(call.publicUrl, doc.path ?? '/'), call.request.query, batch, total),
    metadataFields: call.query?.metadata_fields ?? [],
  };
}

/** The neighbours the caller may see, only where the parent switched next/previous navigation on. */
async function neighboursOf(
  call: RenderCall,
  doc: ContentDoc,
  parent: ContentDoc | null,
  { repo, types }: Pick<ContentDeps, 'repo' | 'types'>,
) {
  const enabled =
    parent !== null &&
    types.get(parent.portal_type).behaviors.includes('cms.nextpreviousenabled') &&
    parent.fields?.nextPreviousEnabled === true;
  if (!enabled || !doc.parent_uid) return null;
  const viewer = callerTokens(call.principal);
  const [previous, next] = await Promise.all([
    repo.sibling(doc.parent_uid, doc.position, 'previous', viewer),
    repo.sibling(doc.parent_uid, doc.position, 'next', viewer),
  ]);
  return { previous, next };
}

/** Related objects the caller may view, per relation field. */
/** The related objects the caller may see, by field, and the paths of all of them (seen or not). */
async function relatedOf(
  call: RenderCall,
  doc: ContentDoc,
  { types, commands }: Pick<ContentDeps, 'types' | 'commands'>,
): Promise<{ visible: Record<string, ContentDoc[]>; paths: string[] }> {
  const relationFields = types.get(doc.portal_type).fields.filter((f) => f.kind === 'relationlist');
  const paths: string[] = [];
  const entries = await Promise.all(
    relationFields.map(async (field) => {
      const found = await commands.related(doc, field.name);
      for (const target of found) if (target.path) paths.push(target.path);
      const visible = found.filter((d) => hasPermission(call.principal, 'View', accessOf(d)));
      return [field.name, visible] as const;
    }),
  );
  return { visible: Object.fromEntries(entries), paths };
}
