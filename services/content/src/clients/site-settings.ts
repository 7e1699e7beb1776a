import { RegistrySettings, type Logger } from '@cms/shared';
import { parseSizes } from '../domain/files';
import { DEFAULT_SITE_SETTINGS, type SiteSettings, type SiteSettingsSource } from '../domain/site';

/** The registry records behind SiteSettings (the config service owns them). */
export const SITE_SETTING_RECORDS = {
  siteTitle: 'cms.site_title',
  displayedTypes: 'cms.displayed_types',
  allowedSizes: 'cms.allowed_sizes',
  lockOnEdit: 'cms.lock_on_ttw_edit',
  defaultLanguage: 'cms.default_language',
  discussionEnabled: 'cms.app.discussion.interfaces.IDiscussionSettings.globally_enabled',
} as const;

const NAMES = Object.values(SITE_SETTING_RECORDS);
/** Longest wait for config on a read (every content GET reads them): past it the last known settings serve. */
const MAX_READ_WAIT_MS = 2000;

/**
 * The site settings from the config service (`RegistrySettings`: cached while its watch stream is open, so a
 * change applies from the next request on). Connected on first use: config may start after content. While config
 * cannot be reached the last settings read are used (the defaults before the first read); the failure is logged.
 * Content's requests read them often (every GET), so the last read is current but for a change just made.
 */
export function registrySiteSettings(
  address: string,
  timeoutMs: number,
  maxMessageBytes: number,
  log: Logger,
): SiteSettingsSource & { close(): void; lastKnown(): SiteSettings } {
  let registry: RegistrySettings | undefined;
  let last = DEFAULT_SITE_SETTINGS;
  return {
    async current(requestId) {
      registry ??= new RegistrySettings({
        address,
        timeoutMs: Math.min(timeoutMs, MAX_READ_WAIT_MS),
        maxMessageBytes,
        log,
      });
      try {
        last = await registry.derived(NAMES, requestId, siteSettingsOf);
      } catch (error) {
        log.warn({ err: error, requestId }, 'site settings unreadable from config; using the last known');
      }
      return last;
    },
    /** The settings the last `current` read, without asking (for what cannot wait: event snapshots). */
    lastKnown: () => last,
    close: () => registry?.close(),
  };
}

/** The settings from the records' values; a value of another shape is the default (the registry validates writes). */
export function siteSettingsOf(values: Record<string, unknown>): SiteSettings {
  const title = values[SITE_SETTING_RECORDS.siteTitle];
  const types = values[SITE_SETTING_RECORDS.displayedTypes];
  const sizes = values[SITE_SETTING_RECORDS.allowedSizes];
  const lockOnEdit = values[SITE_SETTING_RECORDS.lockOnEdit];
  const language = values[SITE_SETTING_RECORDS.defaultLanguage];
  const discussion = values[SITE_SETTING_RECORDS.discussionEnabled];
  return {
    siteTitle: typeof title === 'string' && title.trim() ? title : null,
    displayedTypes: stringList(types) ?? DEFAULT_SITE_SETTINGS.displayedTypes,
    scaleSizes: stringList(sizes) ? parseSizes(stringList(sizes)!) : DEFAULT_SITE_SETTINGS.scaleSizes,
    lockOnEdit: typeof lockOnEdit === 'boolean' ? lockOnEdit : DEFAULT_SITE_SETTINGS.lockOnEdit,
    defaultLanguage: typeof language === 'string' && language ? language : DEFAULT_SITE_SETTINGS.defaultLanguage,
    discussionEnabled: typeof discussion === 'boolean' ? discussion : DEFAULT_SITE_SETTINGS.discussionEnabled,
  };
}

function stringList(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : null;
}
