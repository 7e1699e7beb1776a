import { createLogger, type ServiceDeps } from '../../src';
import { serviceLifecycle, ServiceParts } from '../../src/runtime/service';

const logger = createLogger('lifecycle-test', 'silent');
const deps = { config: {}, logger } as ServiceDeps<object>;

describe('a service lifecycle', () => {
  it('stops the parts newest first', async () => {
    const stopped: string[] = [];
    const start = serviceLifecycle(async (_deps, parts: ServiceParts) => {
      parts.onStop('relay', () => void stopped.push('relay'));
      parts.onStop('consumer', async () => void stopped.push('consumer'));
      parts.onStop('server', () => void stopped.push('server'));
      return { address: '127.0.0.1:1' };
    });
    const running = await start(deps);
    expect(running.address).toBe('127.0.0.1:1');
    await running.stop();
    expect(stopped).toEqual(['server', 'consumer', 'relay']);
  });

  it('stops what a failed start had started, then passes the failure on', async () => {
    const stopped: string[] = [];
    const start = serviceLifecycle(async (_deps, parts: ServiceParts) => {
      parts.onStop('relay', () => void stopped.push('relay'));
      parts.onStop('consumer', () => void stopped.push('consumer'));
      throw new Error('port taken');
    });
    await expect(start(deps)).rejects.toThrow('port taken');
    expect(stopped).toEqual(['consumer', 'relay']);
  });

  it('still stops the others when one stop fails, and reports the first failure', async () => {
    const stopped: string[] = [];
    const parts = new ServiceParts(logger);
    parts.onStop('relay', () => void stopped.push('relay'));
    parts.onStop('consumer', () => {
      throw new Error('consumer stuck');
    });
    parts.onStop('server', async () => {
      throw new Error('server stuck');
    });
    await expect(parts.stopAll()).rejects.toThrow('server stuck');
    expect(stopped).toEqual(['relay']);
    // Stopped once: a second stop has nothing left to do.
    await expect(parts.stopAll()).resolves.toBeUndefined();
  });
});
