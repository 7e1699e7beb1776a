import {
  badRequest,
  progressMessages,
  serverStream,
  unary,
  type ContentServiceHandlers,
  type Logger,
} from '@cms/shared';
import {
  isMultilingual,
  type ContentScan,
  type Translations,
  type TranslationsCheckpoints,
} from '../domain/translations';
import type { StoreContentRepository } from '../store/content-repository';

/** A language code as the language panel's vocabulary has them (`en`, `pt-br`). */
const LANGUAGE_CODE = /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/;
/** More languages than any site has: a bound on one call's work. */
const MAX_LANGUAGES = 200;

/**
 * `RebuildTranslations`, and `EnsureLanguageRoots`: the config service's language panel switched multilingual on; the root folders exist
 * when this answers, so they do when the panel's write answers (addendum §8).
 */
export function languageRootRpcs(
  translations: Translations,
  repo: ContentScan & Pick<StoreContentRepository, 'countInTree'>,
  log: Logger,
  checkpoints?: TranslationsCheckpoints,
): Pick<ContentServiceHandlers, 'EnsureLanguageRoots' | 'RebuildTranslations'> {
  return {
    // `npm run translations:rebuild` (translations-rebuild.ts), with its progress; a cancelled call stops it.
    // It goes on from where one cut short stopped (the checkpoint), unless the call asks from_scratch.
    RebuildTranslations: serverStream(log, async function* (request: { from_scratch: boolean }, ctx) {
      if (request.from_scratch) await checkpoints?.clear();
      const steps = translations.rebuildSteps(repo, await repo.countInTree(), ctx.requestId, checkpoints);
      for await (const { result: linked, ...step } of progressMessages(steps)) {
        if (linked === undefined) {
          yield step;
          continue;
        }
        log.info({ requestId: ctx.requestId, linked }, 'translation groups rebuilt from the content store');
        yield { ...step, result: { linked } };
      }
    }),
    EnsureLanguageRoots: unary(log, async (request: { languages: string[] }, ctx) => {
      const languages = [...new Set(request.languages)];
      if (!isMultilingual(languages) || languages.length > MAX_LANGUAGES) {
        throw badRequest(`Language roots need 2 to ${MAX_LANGUAGES} languages`);
      }
      const bad = languages.find((code) => !LANGUAGE_CODE.test(code));
      if (bad !== undefined) throw badRequest(`Not a language code: ${bad.slice(0, 20)}`);
      return { paths: await translations.ensureRoots(languages, ctx.requestId) };
    }),
  };
}
