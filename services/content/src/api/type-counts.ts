import { unary, type ContentServiceHandlers, type Logger } from '@cms/shared';
import type { ContentRepository } from '../domain/content';

/** At most this many types in one question: more than a site defines. */
const MAX_TYPES = 1000;

/** `CountByType`: how many objects of each type exist, for config's `cms-types` panel and type removal. */
export function typeCountRpcs(repo: ContentRepository, log: Logger): Pick<ContentServiceHandlers, 'CountByType'> {
  return {
    CountByType: unary(log, async (request: { types: string[] }) => {
      const names = [...new Set(request.types)].slice(0, MAX_TYPES);
      const counts = await Promise.all(names.map((name) => repo.countOfType(name)));
      return { counts: Object.fromEntries(names.map((name, i) => [name, counts[i]])) };
    }),
  };
}
