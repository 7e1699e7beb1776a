import { ConfigError, loadConfig } from '@cms/shared';
import { identityConfigSchema } from '../src/config';

describe('identity configuration', () => {
  const secrets = { JWT_SECRET: 'k'.repeat(32), ADMIN_PASSWORD: 'secret' };

  it('needs JWT_SECRET and ADMIN_PASSWORD with any server engine, not with the embedded one', () => {
    expect(() => loadConfig(identityConfigSchema, {})).not.toThrow();
    for (const store of [
      { STORE_URL: 'postgres://db/cms' },
      { STORE_URL: 'mongodb://db/cms' },
      { MONGO_URL: 'mongodb://db/cms' },
    ]) {
      const error = (() => {
        try {
          loadConfig(identityConfigSchema, store);
        } catch (err) {
          return err;
        }
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^JWT_SECRET: required with a production store/),
        expect.stringMatching(/^ADMIN_PASSWORD: required with a production store/),
      ]);
      expect(() => loadConfig(identityConfigSchema, { ...store, ...secrets })).not.toThrow();
    }
  });
});
