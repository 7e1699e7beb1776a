/** `@querystring`: the query builder's indexes, operators and inlined vocabulary values. */
import { callerTokens, ROLES, SIMPLE_PUBLICATION_WORKFLOW, urlOf } from '@cms/shared';
import { querystringIndexes, type VocabularyValues } from '../domain/querystring-config';
import type { AddableType } from '../clients/content-types';
import type { Catalog } from '../store/catalog';
import { endpoint, operation } from './declarations';

export const querystring = endpoint({
  name: 'querystring',
  service: 'search',
  context: 'content',
  cache: 'site',
  operations: {
    GET: operation({
      summary: 'The query builder configuration: indexes with their operators and vocabulary values',
      permission: 'View',
      handle: async (call, { catalog, addableTypes }) => ({
        status: 200,
        body: {
          '@id': urlOf(call.publicUrl, call.contextPath) + '/@querystring',
          ...querystringIndexes(
            await vocabularyValues(catalog, callerTokens(call.principal), await addableTypes.list(call.requestId)),
          ),
        },
      }),
    }),
  },
});

/**
 * The vocabularies' terms as `values` shows them (`{token: {title}}`): the workflow's states and the roles, every
 * addable type (as the original's vocabulary, whether any object has it yet) with the other types of what the
 * caller may see (comments), and the tags of what the caller may see.
 */
async function vocabularyValues(
  catalog: Catalog,
  viewerTokens: string[],
  addable: readonly AddableType[],
): Promise<VocabularyValues> {
  const { types, subjects } = await catalog.distinctTerms(viewerTokens);
  for (const type of addable) types.set(type.name, type.title);
  const states = Object.values(SIMPLE_PUBLICATION_WORKFLOW.states).map((s) => [s.id, `${s.title} [${s.id}]`]);
  const terms = (pairs: Iterable<readonly [string, string]>) =>
    Object.fromEntries([...pairs].sort(([a], [b]) => a.localeCompare(b)).map(([token, title]) => [token, { title }]));
  return {
    'cms.app.vocabularies.WorkflowStates': terms(states as [string, string][]),
    'cms.app.vocabularies.Roles': terms(ROLES.map((r) => [r, r] as const)),
    // The site root is no type a user adds or looks for.
    'cms.app.vocabularies.ReallyUserFriendlyTypes': terms([...types].filter(([name]) => name !== 'Site Root')),
    'cms.app.vocabularies.Keywords': terms([...subjects].map((s) => [s, s] as const)),
  };
}
