/**
 * `@upgrade`: the content store's pending data migrations (domain/site/data-migrations.ts), listed (`GET`) and run
 * (`POST`, `dry_run` reports without writing), in the original platform's shapes: steps keyed `<from>-<to>`,
 * versions as strings (`fs` what this release writes, `instance` what the data is at).
 */
import { z } from 'zod';
import { using } from './declarations';

const { endpoint, operation } = using('migrations');

const upgradeBody = z.object({ dry_run: z.boolean().optional() }).strict();

const versionsJson = (v: { instance: number; fs: number }) => ({ fs: String(v.fs), instance: String(v.instance) });

export const upgrade = endpoint({
  name: 'upgrade',
  service: 'content',
  context: 'site-root',
  operations: {
    GET: operation({
      summary: 'The pending data migrations of the content store and its data versions',
      permission: 'cms.ManagePortal',
      handle: async (call, { migrations }) => {
        const status = await migrations.status();
        const steps: Record<string, { id: string; title: string; description: string }[]> = {};
        for (const m of status.pending) {
          steps[`${m.version - 1}-${m.version}`] = [{ id: m.id, title: m.title, description: m.description }];
        }
        return {
          status: 200,
          body: { '@id': `${call.publicUrl}/@upgrade`, upgrade_steps: steps, versions: versionsJson(status) },
        };
      },
    }),
    POST: operation({
      summary: 'Runs the pending data migrations; `dry_run: true` reports what they would do and writes nothing',
      permission: 'cms.ManagePortal',
      body: upgradeBody,
      handle: async (call, { migrations }) => {
        const dryRun = call.body.dry_run ?? false;
        const run = await migrations.run(dryRun);
        call.log.info({ dryRun, versions: run.versions }, 'data migrations run');
        return {
          status: 200,
          body: {
            '@id': `${call.publicUrl}/@upgrade`,
            dry_run: dryRun,
            report: run.report,
            upgraded: run.upgraded,
            versions: versionsJson(run.versions),
          },
        };
      },
    }),
  },
});
