import { badRequest, unary, type ContentServiceHandlers, type Logger } from '@cms/shared';
import { MAX_SITE_TITLE_LENGTH, type SiteTitle } from '../domain/site';

/** `SetSiteTitle`: the site panel's title changed (config); the site root has it when this answers. */
export function siteTitleRpcs(siteTitle: SiteTitle, log: Logger): Pick<ContentServiceHandlers, 'SetSiteTitle'> {
  return {
    SetSiteTitle: unary(log, async (request: { title: string }, ctx) => {
      if (request.title.length > MAX_SITE_TITLE_LENGTH) {
        throw badRequest(`A site title has at most ${MAX_SITE_TITLE_LENGTH} characters`);
      }
      await siteTitle.set(request.title, ctx.requestId);
      log.info({ requestId: ctx.requestId }, 'site root title set from the site settings');
      return {};
    }),
  };
}
