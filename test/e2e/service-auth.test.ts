/**
 * Issue 25, item 1: a call that reaches a service's gRPC port without a valid service proof is refused before any
 * handler runs, on every service; only the health check stays open. The embedded mode binds loopback.
 */
import * as grpc from '@grpc/grpc-js';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import * as protoLoader from '@grpc/proto-loader';
import { createHash, randomUUID } from 'node:crypto';
import { protos, SERVICE_PROOF_KEY, SERVICE_PROOF_WINDOW_MS, signServiceProof, type ServiceName } from '@cms/shared';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

type Callback = (error: grpc.ServiceError | null, response?: { status?: number; body?: Buffer }) => void;
type RawClient = grpc.Client & Record<string, (request: unknown, metadata: grpc.Metadata, cb: Callback) => void>;
type RawCtor = new (address: string, credentials: grpc.ChannelCredentials) => RawClient;

/** A client as an attacker makes it: the suite's contracts, no proof (unlike `createClient`). */
function rawClient(Ctor: unknown, address: string): RawClient {
  return new (Ctor as RawCtor)(address, grpc.credentials.createInsecure());
}

function call(client: RawClient, method: string, request: unknown, metadata = new grpc.Metadata()) {
  return new Promise<{ error: grpc.ServiceError | null; response?: { status?: number; body?: Buffer } }>((resolve) =>
    client[method]!(request, metadata, (error, response) => resolve({ error, response })),
  );
}

const managerCreatesPage = (title: string) => ({
  method: 'POST',
  context_path: [],
  endpoint: '',
  sub_path: [],
  query: [],
  body: Buffer.from(JSON.stringify({ '@type': 'Document', id: title, title })),
  principal: { id: 'intruder', roles: ['Manager'], groups: [], fullname: '' },
  public_url: 'http://localhost',
  request_id: 'forged',
  headers: {},
});

/** The bytes grpc-js sends for a Handle request, for proofs made by hand. */
function handleBytes(request: unknown): Buffer {
  const definition = (protos().content.ContentService as unknown as { service: grpc.ServiceDefinition }).service;
  return definition.Handle!.requestSerialize(request);
}

const HANDLE_PATH = '/cms.content.v1.ContentService/Handle';

describe('service-to-service authentication', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('binds every service to loopback in the embedded mode', () => {
    for (const address of Object.values(t.suite.addresses)) expect(address).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it.each(['content', 'identity', 'search', 'discussion', 'config'] as const)(
    'refuses a forged Handle claiming Manager on %s, and the page is not created',
    async (service: ServiceName) => {
      const Ctor = {
        content: protos().content.ContentService,
        identity: protos().identity.IdentityService,
        search: protos().search.SearchService,
        discussion: protos().discussion.DiscussionService,
        config: protos().config.ConfigService,
      }[service as 'content'];
      const client = rawClient(Ctor, t.suite.addresses[service as 'content']);
      try {
        const id = `forged-on-${service}`;
        const { error, response } = await call(client, 'Handle', managerCreatesPage(id));
        expect(response).toBeUndefined();
        expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
        expect((await t.request('GET', `/${id}`)).status).toBe(404);
      } finally {
        client.close();
      }
    },
  );

  it('refuses a forged ContextService.Resolve', async () => {
    const client = rawClient(protos().contexts.ContextService, t.suite.addresses.content);
    try {
      const { error } = await call(client, 'Resolve', { path: [], principal: { id: 'x', roles: ['Manager'] } });
      expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
    } finally {
      client.close();
    }
  });

  describe('proofs made by hand', () => {
    let client: RawClient;
    beforeAll(() => {
      client = rawClient(protos().content.ContentService, t.suite.addresses.content);
    });
    afterAll(() => client.close());

    const withProof = (proof: string, requestId = 'forged') => {
      const metadata = new grpc.Metadata();
      metadata.set('x-request-id', requestId);
      metadata.set(SERVICE_PROOF_KEY, proof);
      return metadata;
    };
    const claims = (request: unknown, issuedAt = Date.now()) => ({
      method: HANDLE_PATH,
      requestId: 'forged',
      clientAddress: '',
      issuedAt,
      bodyDigest: createHash('sha256').update(handleBytes(request)).digest('base64url'),
    });

    it('refuses a proof signed with another key', async () => {
      const request = managerCreatesPage('other-key');
      const proof = signServiceProof(claims(request), Buffer.from('k'.repeat(43)));
      const { error } = await call(client, 'Handle', request, withProof(proof));
      expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
    });

    it('refuses a malformed proof', async () => {
      const { error } = await call(
        client,
        'Handle',
        managerCreatesPage('malformed'),
        withProof('v1.1.' + 'A'.repeat(500)),
      );
      expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
    });

    it('takes a proof of this process within its window, and refuses it once expired', async () => {
      const fresh = managerCreatesPage('signed-in-window');
      const accepted = await call(client, 'Handle', fresh, withProof(signServiceProof(claims(fresh))));
      expect(accepted.error).toBeNull();
      expect(accepted.response?.status).toBe(201);

      const stale = managerCreatesPage('signed-too-early');
      const old = signServiceProof(claims(stale, Date.now() - SERVICE_PROOF_WINDOW_MS - 1000));
      expect((await call(client, 'Handle', stale, withProof(old))).error?.code).toBe(grpc.status.UNAUTHENTICATED);
      expect((await t.request('GET', '/signed-too-early')).status).toBe(404);
    });

    it('refuses a valid proof replayed with another request (a body it does not cover)', async () => {
      const seen = { ...managerCreatesPage('seen'), principal: { id: 'editor', roles: ['Member'], groups: [] } };
      const proof = signServiceProof(claims(seen));
      const swapped = managerCreatesPage('swapped');
      expect((await call(client, 'Handle', swapped, withProof(proof))).error?.code).toBe(grpc.status.UNAUTHENTICATED);
      // Nor under another request id than the one signed.
      expect((await call(client, 'Handle', seen, withProof(proof, randomUUID()))).error?.code).toBe(
        grpc.status.UNAUTHENTICATED,
      );
      expect((await t.request('GET', '/swapped')).status).toBe(404);
    });
  });

  it('leaves the health check open', async () => {
    const definition = protoLoader.loadSync(healthProtoPath, { keepCase: true, enums: String, defaults: true });
    const Health = (
      grpc.loadPackageDefinition(definition) as unknown as { grpc: { health: { v1: { Health: unknown } } } }
    ).grpc.health.v1.Health;
    const client = rawClient(Health, t.suite.addresses.search);
    try {
      const { error, response } = await call(client, 'Check', { service: '' });
      expect(error).toBeNull();
      expect((response as { status?: string }).status).toBe('SERVING');
    } finally {
      client.close();
    }
  });
});
