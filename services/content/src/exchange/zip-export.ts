/**
 * `@export`'s answer: the site in plone.exportimport's layout (what `npm run export` writes into a folder) as a
 * ZIP streamed to the response, one entry at a time: an entry's bytes are handed on, and the response has taken
 * them, before the next object is read, so neither the ZIP nor a file is ever held whole.
 */
import type { ServerResponse } from 'node:http';
import { once } from 'node:events';
import { Readable, type PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Logger, Progress } from '@cms/shared';
import { ZipFile } from 'yazl';
import type { ContentDeps } from '../api/declarations';
import type { StoreContentRepository } from '../store/content-repository';
import { linksOfExport } from './export-links';
import { exportedObjects } from './export-rpc';
import { exportSite, type ExportSideFiles, type ExportSink } from './export-site';

/** What the tools show as progress, unshown (an HTTP answer has no terminal). */
export const SILENT_PROGRESS: Progress = { tick: () => undefined, update: () => undefined, stop: () => undefined };

/** The file name plone.exportimport's `@export` gives its answer. */
export const EXPORT_FILENAME = 'plone_export.zip';

/**
 * Writes the site's ZIP to `res`, with the side files of other services that `sides` reads (translations.json and
 * redirects.json are content's own). Before its first byte an error is thrown (for a JSON answer); after, it cuts
 * the answer short.
 */
export async function sendSiteZip(
  res: ServerResponse,
  repo: StoreContentRepository,
  deps: ContentDeps,
  sides: Omit<ExportSideFiles, 'translations' | 'redirects'>,
  requestId: string,
  log: Logger,
): Promise<void> {
  const zip = new ZipFile();
  // yazl's output is a PassThrough (its typings say only ReadableStream).
  const output = zip.outputStream as PassThrough;
  let stop: (error: Error) => void = () => undefined;
  // Rejects when the response can take no more (the client went away, or the ZIP failed): the export stops there.
  const closed = new Promise<never>((_, reject) => (stop = reject));
  closed.catch(() => undefined);
  zip.on('error', (error: Error) => stop(error));
  res.on('close', () => {
    if (!res.writableFinished) stop(new Error('the client went away before the end of the export'));
  });
  res.setHeader('Content-Type', 'application/zip');
  res.setHeader('Content-Disposition', `attachment; filename="${EXPORT_FILENAME}"`);
  res.setHeader('Cache-Control', 'private, no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  output.pipe(res);
  try {
    const links = linksOfExport(exportedObjects(repo, deps, (file) => deps.files.open(file), requestId));
    const summary = await exportSite(
      zipSink(zip, closed),
      links.objects,
      { ...sides, translations: links.translations, redirects: links.redirects },
      () => SILENT_PROGRESS,
    );
    zip.end();
    await Promise.race([finished(res), closed]);
    log.info(summary, 'site exported as a ZIP');
  } catch (error) {
    output.unpipe(res);
    output.destroy();
    if (!res.headersSent) {
      for (const name of ['Content-Type', 'Content-Disposition']) res.removeHeader(name);
      throw error;
    }
    // Part of the ZIP is out: cutting the connection leaves the client a ZIP without its central directory, which
    // no reader takes for whole.
    log.warn({ err: error }, 'the export ZIP was cut short');
    res.destroy();
  }
}

/** Entries of `zip`, each written (and taken by the response) before `write` resolves. */
function zipSink(zip: ZipFile, closed: Promise<never>): ExportSink {
  const out = zip.outputStream as PassThrough;
  return {
    async write(path, data) {
      const source = Buffer.isBuffer(data) ? Readable.from([data]) : data;
      zip.addReadStream(source, path);
      try {
        await Promise.race([finished(source), closed]);
        if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), closed]);
      } catch (error) {
        source.destroy();
        throw error;
      }
    },
  };
}
