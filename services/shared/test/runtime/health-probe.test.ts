/**
 * The image's `probe` command (docker-compose.yml's health checks): exit 0 for SERVING, 1 for NOT_SERVING or
 * nothing listening, 2 for a usage error. It runs the built script, as the image does (npm test builds first).
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createInProcessBus } from '../../src/adapters/bus/in-process-bus';
import { LIVENESS_SERVICE, startGrpcServer, type RunningGrpcServer } from '../../src/grpc/server';
import { storeAndBusReady } from '../../src/runtime/service';
import { openEmbeddedStore } from '../../src/adapters/store/embedded/embedded-store';
import type { DocumentStore } from '../../src/ports/store';

const probeScript = join(__dirname, '../../dist/runtime/health-probe.js');

function probe(...args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [probeScript, ...args],
      { env: { ...process.env, PROBE_TIMEOUT_MS: '1500' } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, output: stdout + stderr }),
    );
  });
}

describe('health probe', () => {
  let ready = true;
  let server: RunningGrpcServer;

  beforeAll(async () => {
    server = await startGrpcServer({
      address: '127.0.0.1:0',
      services: [],
      healthCheck: async () => {
        if (!ready) throw new Error('store down');
      },
      healthIntervalMs: 50,
      maxMessageBytes: 1024 * 1024,
      logger: pino({ level: 'silent' }),
    });
  });

  afterAll(() => server.stop(1000));

  it('exits 0 when the server answers SERVING', async () => {
    const result = await probe(server.address);
    expect(result).toEqual({ code: 0, output: expect.stringContaining('SERVING') });
  });

  it('exits 1 when the server answers NOT_SERVING', async () => {
    ready = false;
    try {
      // The server re-checks every 50 ms; the probe must see NOT_SERVING once it has.
      let result = await probe(server.address);
      for (let attempt = 0; attempt < 20 && result.code === 0; attempt += 1) result = await probe(server.address);
      expect(result).toEqual({ code: 1, output: expect.stringContaining('NOT_SERVING') });
    } finally {
      ready = true;
    }
  });

  it('exits 1 when nothing listens there, for liveness as for readiness', async () => {
    expect((await probe('127.0.0.1:1')).code).toBe(1);
    expect((await probe('127.0.0.1:1', LIVENESS_SERVICE)).code).toBe(1);
  });

  it('exits 2 on a usage error, without echoing the argument', async () => {
    expect((await probe()).code).toBe(2);
    const result = await probe('not an address');
    expect(result.code).toBe(2);
    expect(result.output).not.toContain('not an address');
  });
});

/** Every attempt of the probe until it exits `code` (bounded); the last result. */
async function probeUntil(code: number, ...args: string[]) {
  let result = await probe(...args);
  for (let attempt = 0; attempt < 20 && result.code !== code; attempt += 1) result = await probe(...args);
  return result;
}

describe('liveness and readiness of a service whose store fails', () => {
  let dir: string;
  let store: DocumentStore;
  let server: RunningGrpcServer;
  let storeFails = false;

  beforeAll(async () => {
    dir = await fs.mkdtemp(join(tmpdir(), 'health-liveness-'));
    store = await openEmbeddedStore(dir);
    // The store as the service sees it, with a ping that rejects while `storeFails` (a database outage).
    const failing: DocumentStore = Object.create(store, {
      ping: {
        value: () => (storeFails ? Promise.reject(new Error('store unreachable')) : store.ping()),
      },
    });
    const bus = createInProcessBus({ topology: [], logger: pino({ level: 'silent' }) });
    server = await startGrpcServer({
      address: '127.0.0.1:0',
      services: [],
      healthCheck: storeAndBusReady(failing, bus),
      healthIntervalMs: 50,
      maxMessageBytes: 1024 * 1024,
      logger: pino({ level: 'silent' }),
    });
  });

  afterAll(async () => {
    await server.stop(1000);
    await store.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('reports readiness NOT_SERVING and liveness SERVING while the store fails, and ready again after', async () => {
    expect((await probe(server.address)).code).toBe(0);
    expect(await probe(server.address, LIVENESS_SERVICE)).toEqual({
      code: 0,
      output: expect.stringContaining('SERVING'),
    });

    storeFails = true;
    expect(await probeUntil(1, server.address)).toEqual({ code: 1, output: expect.stringContaining('NOT_SERVING') });
    const liveness = await probe(server.address, LIVENESS_SERVICE);
    expect(liveness).toEqual({ code: 0, output: expect.stringContaining('(liveness): SERVING') });

    storeFails = false;
    expect((await probeUntil(0, server.address)).code).toBe(0);
  });
});
