/**
 * How search asks the content service about an object an event names (`ContentService.GetByUid`), against a
 * content server stand-in: the object, none (NOT_FOUND), or a failure when content does not answer.
 */
import {
  createClient,
  createLogger,
  notFound,
  protos,
  startGrpcServer,
  unary,
  type ContentServiceClient,
  type ContentSnapshot,
  type RunningGrpcServer,
} from '@cms/shared';
import { remoteContentSource } from '../src/clients/content-source';

const log = createLogger('content', 'silent');
const MAX = 4 * 1024 * 1024;
const UID = 'a'.repeat(32);

const snapshot: ContentSnapshot = {
  uid: UID,
  path: '/doc',
  id: 'doc',
  portal_type: 'Document',
  type_title: 'Page',
  title: 'Held by content',
  description: '',
  review_state: 'private',
  version: 4,
  created: '2030-01-01T00:00:00.000Z',
  modified: '2030-01-01T00:00:00.000Z',
  creators: ['admin'],
  parent_uid: 'f'.repeat(32),
  is_folderish: false,
  position: 0,
  searchable_text: 'doc held by content',
  allowed_roles_and_users: ['Manager'],
  subjects: [],
  exclude_from_nav: false,
  language: '',
};

function startContent(): Promise<RunningGrpcServer> {
  return startGrpcServer({
    address: '127.0.0.1:0',
    services: [
      {
        name: 'cms.content.v1.ContentService',
        definition: protos().content.ContentService.service,
        implementation: {
          GetByUid: unary(log, async (request: { uid: string }) => {
            if (request.uid !== UID) throw notFound(`No content with UID ${request.uid}`);
            return snapshot;
          }),
        },
      },
    ],
    healthCheck: async () => {},
    maxMessageBytes: MAX,
    logger: log,
  });
}

describe('remoteContentSource', () => {
  let server: RunningGrpcServer;
  let client: ContentServiceClient;

  beforeAll(async () => {
    server = await startContent();
    client = createClient(protos().content.ContentService, server.address, MAX);
  });

  afterAll(async () => {
    client.close();
    await server.stop(1000);
  });

  it('answers the object as content holds it, or null when content has none', async () => {
    const source = remoteContentSource(() => client, 5000);
    expect(await source.current(UID, 'r1')).toMatchObject({ uid: UID, version: 4, title: 'Held by content' });
    expect(await source.current('b'.repeat(32), 'r2')).toBeNull();
  });

  it('fails when content does not answer, so that the event is retried', async () => {
    const stopped = await startContent();
    await stopped.stop(1000);
    const unreachable = createClient(protos().content.ContentService, stopped.address, MAX);
    try {
      await expect(remoteContentSource(() => unreachable, 5000).current(UID, 'r3')).rejects.toMatchObject({
        type: expect.stringMatching(/^(ServiceUnavailable|GatewayTimeout)$/),
      });
    } finally {
      unreachable.close();
    }
  });

  it('waits, within the deadline, for a content address not known yet (the embedded mode learns it late)', async () => {
    let known = false;
    const late = () => {
      if (!known) {
        known = true;
        throw new Error('content has not started yet');
      }
      return client;
    };
    expect(await remoteContentSource(late, 5000).current(UID, 'r4')).toMatchObject({ version: 4 });

    const never = () => {
      throw new Error('content has not started yet');
    };
    await expect(remoteContentSource(never, 50).current(UID, 'r5')).rejects.toMatchObject({
      type: 'ServiceUnavailable',
      message: expect.stringContaining('content has not started yet'),
    });
  });
});
