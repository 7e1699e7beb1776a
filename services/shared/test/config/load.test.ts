import { z } from 'zod';
import { commonEnv, ConfigError, grpcTarget, loadConfig, storeEngineOf } from '../../src/config/load';

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
      for (const url of ['sqlite:///var/lib/cms', 'sqlite:data/store']) {
        expect(engineOf({ STORE_URL: url })).toEqual({ engine: 'sqlite', url });
      }
    });

    it('refuses a sqlite: URL with a host or without a folder', () => {
      for (const url of ['sqlite://db-host/cms', 'sqlite:///']) {
        expect(() => loadConfig(schema, { PORT: '1', STORE_URL: url })).toThrow(
          /STORE_URL: a sqlite: URL names the folder of the database files, with no host/,
        );
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
        /STORE_URL: expected a postgres:\/\/, postgresql:\/\/, mongodb:\/\/, mongodb\+srv:\/\/ or sqlite:\/\/\/ URL/,
      );
      expect(() => loadConfig(schema, { PORT: '1', MONGO_URL: 'http://db' })).toThrow(/MONGO_URL/);
    });
  });
});

describe('grpcTarget', () => {
  it.each([
    '127.0.0.1:50051',
    'content:50051',
    'dns:///cms-content-headless.cms.svc.cluster.local:50051',
    'dns:content:50051',
    'ipv4:10.0.0.1:50051,10.0.0.2:50051',
    'ipv6:[::1]:50051,[fd00::2]:50051',
  ])('takes %s', (target) => expect(grpcTarget.safeParse(target).success).toBe(true));

  it.each(['content', 'dns:///content', 'ipv4:content:50051', 'ipv4:10.0.0.1:50051,', 'a b:1', 'unix:/tmp/socket'])(
    'refuses %s',
    (target) => expect(grpcTarget.safeParse(target).success).toBe(false),
  );

  it('defaults to aging connections out every 30 s, with no grace limit', () => {
    const config = loadConfig(z.object(commonEnv), {});
    expect(config.GRPC_MAX_CONNECTION_AGE_MS).toBe(30_000);
    expect(config.GRPC_MAX_CONNECTION_AGE_GRACE_MS).toBeUndefined();
  });
});
