import { z } from 'zod';
import { commonEnv, ConfigError, loadConfig } from '../../src/config/load';

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
});
