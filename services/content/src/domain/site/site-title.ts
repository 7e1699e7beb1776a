/**
 * The site title lives in the registry (`cms.site_title`, the site panel's, owned by config); the site root shows
 * it as its own title. When the panel's title changes, config has content write it to the site root before the
 * panel's write answers, as the reference platform keeps the two in step.
 */
import { modifiedEvent } from '../content/content-events';
import type { ContentRepository } from '../content/repository';
import { SYSTEM_WRITE, type ContentWriter } from '../content/write-path';

/** Longest site title taken (the registry's text lines are bounded too). */
export const MAX_SITE_TITLE_LENGTH = 1000;

export class SiteTitle {
  constructor(
    private readonly repo: ContentRepository,
    private readonly writer: ContentWriter,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Gives the site root `title`; nothing is written when it has it already (idempotent). */
  async set(title: string, requestId: string): Promise<void> {
    const root = await this.repo.byPath('/');
    if (!root) throw new Error('the site root is missing');
    await this.writer.write(
      root,
      {
        kind: 'update',
        plan: (current) =>
          current.title === title
            ? null
            : {
                set: { title, modified: this.now().toISOString() },
                events: (next) => [modifiedEvent(next, ['title'], requestId)],
              },
      },
      SYSTEM_WRITE,
    );
  }
}
