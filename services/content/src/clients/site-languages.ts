import { RegistrySettings, type Logger } from '@cms/shared';
import type { SiteLanguages } from '../domain/translations';

/** The registry record of the language panel's `available_languages` (the config service owns it). */
export const AVAILABLE_LANGUAGES_RECORD = 'cms.available_languages';

/**
 * The site's available languages, read from the config service (`RegistrySettings`: cached while its watch
 * stream is open, so most requests make no call). While config cannot be reached, the last languages read are
 * used (none before the first read), so content keeps answering; the failure is logged once per outage.
 */
export function siteLanguages(
  address: string,
  timeoutMs: number,
  maxMessageBytes: number,
  log: Logger,
): SiteLanguages & { close(): void } {
  let settings: RegistrySettings | undefined;
  let last: string[] = [];
  // Said once per outage, not on every request meanwhile.
  let failing = false;
  return {
    async available(requestId: string): Promise<string[]> {
      settings ??= new RegistrySettings({ address, timeoutMs, maxMessageBytes, log });
      try {
        const value = await settings.value<unknown>(AVAILABLE_LANGUAGES_RECORD, requestId);
        last = Array.isArray(value) ? value.filter((code): code is string => typeof code === 'string') : [];
        failing = false;
      } catch (error) {
        if (!failing)
          log.warn({ err: error, requestId }, 'available languages unreadable from config; using the last known');
        failing = true;
      }
      return last;
    },
    close: () => settings?.close(),
  };
}
