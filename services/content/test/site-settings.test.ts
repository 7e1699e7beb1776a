import { SITE_SETTING_RECORDS, siteSettingsOf } from '../src/clients/site-settings';
import { DEFAULT_SITE_SETTINGS } from '../src/domain/site';

describe('site settings from registry values', () => {
  it('reads each record', () => {
    const settings = siteSettingsOf({
      [SITE_SETTING_RECORDS.siteTitle]: 'Harbour',
      [SITE_SETTING_RECORDS.displayedTypes]: ['Folder'],
      [SITE_SETTING_RECORDS.allowedSizes]: ['banner 200:50', 'not a size', 'square 64:64'],
      [SITE_SETTING_RECORDS.lockOnEdit]: false,
      [SITE_SETTING_RECORDS.defaultLanguage]: 'de',
      [SITE_SETTING_RECORDS.discussionEnabled]: true,
    });
    expect(settings).toEqual({
      siteTitle: 'Harbour',
      displayedTypes: ['Folder'],
      scaleSizes: [
        { name: 'banner', width: 200, height: 50 },
        { name: 'square', width: 64, height: 64 },
      ],
      lockOnEdit: false,
      defaultLanguage: 'de',
      discussionEnabled: true,
    });
  });

  it('takes the defaults for missing values and values of another shape', () => {
    expect(siteSettingsOf({})).toEqual(DEFAULT_SITE_SETTINGS);
    expect(
      siteSettingsOf({
        [SITE_SETTING_RECORDS.siteTitle]: '  ',
        [SITE_SETTING_RECORDS.displayedTypes]: 'Folder',
        [SITE_SETTING_RECORDS.allowedSizes]: [1, 2],
        [SITE_SETTING_RECORDS.lockOnEdit]: 'no',
        [SITE_SETTING_RECORDS.defaultLanguage]: 7,
        [SITE_SETTING_RECORDS.discussionEnabled]: 'yes',
      }),
    ).toEqual(DEFAULT_SITE_SETTINGS);
  });
});
