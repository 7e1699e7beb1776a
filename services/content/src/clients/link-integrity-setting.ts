import { RegistrySettings, type Logger } from '@cms/shared';

/** The registry record of the editing panel's `enable_link_integrity_checks` (the config service owns it). */
export const LINK_INTEGRITY_RECORD = 'cms.enable_link_integrity_checks';

/**
 * Whether link integrity checks are on, read from the config service (`RegistrySettings`: cached while its
 * watch stream is open). While config cannot be reached the last value read is used (on before the first read,
 * the record's default), so a deletion is still warned about; the failure is logged.
 */
export function linkIntegritySetting(
  address: string,
  timeoutMs: number,
  maxMessageBytes: number,
  log: Logger,
): { enabled(requestId: string): Promise<boolean>; close(): void } {
  let settings: RegistrySettings | undefined;
  let last = true;
  return {
    async enabled(requestId: string): Promise<boolean> {
      settings ??= new RegistrySettings({ address, timeoutMs, maxMessageBytes, log });
      try {
        last = (await settings.value<unknown>(LINK_INTEGRITY_RECORD, requestId)) !== false;
      } catch (error) {
        log.warn({ err: error, requestId }, 'link integrity setting unreadable from config; using the last known');
      }
      return last;
    },
    close: () => settings?.close(),
  };
}
