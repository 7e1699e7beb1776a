import { z } from 'zod';
import { commonEnv, ConfigError, loadConfig, storeEngineOf } from '../../src/config/load';

describe('loadConfig', () => {
  const schema = z.object({ ...commonEnv, PORT: z.coerce.number().int().positive() });

  it('applies defaults and coerces numbers', () => {
    const config = loadConfig(schema, { PORT: '8080' });
    expect(config).toMatchObject({ PORT: 8080, DATA_DIR: './data', LOG_LEVEL: 'info', CALL_TIMEOUT_MS: 10000 });
    expect(config.MONGO_URL).toBeUndefined();
  });

  it('fails naming every bad variable', () => {
    expect(() => loadConfig(schema, { PORT: 'eighty', AMQP_URL: 'not a url', LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    try {
      loadConfig(schema, { PORT: 'eighty', AMQP_URL: 'not a url', LOG_LEVEL: 'loud' });
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['PORT', 'AMQP_URL', 'LOG_LEVEL']) expect(message).toContain(name);
    }
  });

  describe('STORE_URL', () => {
    const engineOf = (env: Record<string, string>) => storeEngineOf(loadConfig(schema, { PORT: '1', ...env }));

    it('names the engine by the scheme, embedded when unset', () => {
      expect(engineOf({})).toEqual({ engine: 'embedded' });
      for (const url of ['postgres://db/cms', 'postgresql://u@db:5433/cms']) {
        expect(engineOf({ STORE_URL: url })).toEqual({ engine: 'postgres', url });
      }
      for (const url of ['mongodb://db/cms', 'mongodb+srv://cluster.example.org/cms']) {
        expect(engineOf({ STORE_URL: url })).toEqual({ engine: 'mongodb', url });
      }
    });

    it('takes MONGO_URL as its older name, STORE_URL winning', () => {
      expect(engineOf({ MONGO_URL: 'mongodb://old/cms' })).toEqual({ engine: 'mongodb', url: 'mongodb://old/cms' });
      expect(engineOf({ MONGO_URL: 'mongodb://old/cms', STORE_URL: 'postgres://new/cms' })).toEqual({
        engine: 'postgres',
        url: 'postgres://new/cms',
      });
    });

    it('refuses another scheme, naming the variable', () => {
      expect(() => loadConfig(schema, { PORT: '1', STORE_URL: 'mysql://db/cms' })).toThrow(
        /STORE_URL: expected a postgres:\/\/, postgresql:\/\/, mongodb:\/\/ or mongodb\+srv:\/\/ URL/,
      );
      expect(() => loadConfig(schema, { PORT: '1', MONGO_URL: 'http://db' })).toThrow(/MONGO_URL/);
    });
  });
});
