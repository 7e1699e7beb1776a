/**
 * The search catalog as clients see it: a fixed set of @search queries over the whole site (every sort index,
 * the field filters, text, path and depth, anonymous and administrator), each answer's items in order with all the
 * metadata @search returns. Two views are equal when the catalog answers every query the same.
 */
import type { DistributedSuite } from './distributed-suite';
import { summaryDiff, summaryOf, type Summary } from './write-ledger';

export type CatalogView = Record<string, Summary[]>;

function queries(word: string, folderPath: string): string[] {
  const all = 'b_size=1000';
  return [
    `${all}&sort_on=path`,
    `${all}&sort_on=sortable_title&sort_on=path`,
    `${all}&sort_on=modified&sort_order=descending&sort_on=path`,
    `${all}&sort_on=created&sort_on=path`,
    `${all}&sort_on=getObjPositionInParent&sort_on=path`,
    `${all}&sort_on=id&sort_on=path`,
    `${all}&sort_on=portal_type&sort_on=review_state&sort_on=path`,
    `${all}&portal_type=Document&sort_on=path`,
    `${all}&portal_type=Folder&portal_type=News%20Item&sort_on=path`,
    `${all}&review_state=published&sort_on=path`,
    `${all}&review_state=private&sort_on=path`,
    `${all}&Creator=admin&sort_on=path`,
    `${all}&SearchableText=${word}&sort_on=path`,
    `${all}&SearchableText=${word.slice(0, 12)}*&sort_on=path`,
    `${all}&path.query=${encodeURIComponent(folderPath)}&path.depth=1&sort_on=path`,
    `${all}&path.query=${encodeURIComponent(folderPath)}&path.depth=0`,
  ];
}

/** Every query's answer; `word` is in the titles of the objects of interest, `folderPath` a folder of them. */
export async function catalogView(suite: DistributedSuite, word: string, folderPath: string): Promise<CatalogView> {
  const view: CatalogView = {};
  for (const query of queries(word, folderPath)) {
    for (const [who, auth] of [
      ['admin', suite.auth],
      ['anonymous', null],
    ] as const) {
      const result = await suite.http('GET', `/@search?${query}`, undefined, auth);
      if (result.status !== 200) throw new Error(`@search?${query} (${who}) answered ${result.status}: ${result.text}`);
      view[`${who}: ${query}`] = (result.body.items as Record<string, any>[]).map(summaryOf);
    }
  }
  return view;
}

/** How two views differ, query by query ('' when they are equal). */
export function catalogViewDiff(before: CatalogView, after: CatalogView, names = ['before', 'after']): string {
  const lines: string[] = [];
  for (const query of Object.keys(before)) {
    const [a, b] = [before[query], after[query] ?? []];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    const diff = summaryDiff(a, b, names);
    lines.push(`@search?${query}: ${diff || `same items, in another order`}`);
  }
  return lines.join('\n');
}
