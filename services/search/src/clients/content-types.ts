import type { ConfigTypes, Logger } from '@cms/shared';

/** A type a user may add, as the query builder offers it: its name and title. */
export interface AddableType {
  name: string;
  title: string;
}

export interface AddableTypesSource {
  list(requestId: string): Promise<AddableType[]>;
}

/**
 * The addable types as config defines them (ConfigTypes, cached while its watch stream is open). While config
 * cannot be reached the query builder still answers, with the types in use only (logged).
 */
export function configAddableTypes(types: () => ConfigTypes, log: Logger): AddableTypesSource {
  return {
    async list(requestId) {
      try {
        const { definitions } = await types().definitions(requestId);
        return definitions.filter((d) => d.addable).map((d) => ({ name: d.name, title: d.title }));
      } catch (error) {
        log.warn({ err: error, requestId }, 'content types not read from config; offering the types in use only');
        return [];
      }
    },
  };
}
