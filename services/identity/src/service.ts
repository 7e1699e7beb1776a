import {
  envelopeHandler,
  protos,
  startGrpcServer,
  type EndpointTable,
  type RunningService,
  type ServiceDeps,
} from '@cms/shared';
import { identityRpcs } from './api/grpc';
import type { IdentityConfig } from './config';
import { Authenticator } from './domain/authenticator';
import { hashPassword } from './domain/passwords';
import { UsersRepository } from './store/users';

export async function startIdentityService({
  config,
  logger,
  store,
  bus,
}: ServiceDeps<IdentityConfig>): Promise<RunningService> {
  const users = new UsersRepository(store);
  await users.ensureIndexes();
  await bootstrapAdministrator(users, config, logger);
  const authenticator = new Authenticator(users, config.CREDENTIAL_CACHE_TTL_MS);
  const endpoints: EndpointTable = {};

  const server = await startGrpcServer({
    address: config.IDENTITY_GRPC_ADDRESS,
    services: [
      {
        name: 'cms.identity.v1.IdentityService',
        definition: protos().identity.IdentityService.service,
        implementation: {
          // One endpoint table per area of identity (users, groups, login, …), merged here.
          Handle: envelopeHandler('identity', { ...endpoints }, logger),
          ...identityRpcs(authenticator, users, logger),
        },
      },
    ],
    healthCheck: async () => {
      await store.ping();
      await bus.ping();
    },
    maxMessageBytes: config.MAX_MESSAGE_BYTES,
    logger,
  });

  return { address: server.address, stop: () => server.stop(config.SHUTDOWN_TIMEOUT_MS) };
}

/** Addendum §2: an administrator with role Manager exists from the start. */
async function bootstrapAdministrator(
  users: UsersRepository,
  config: IdentityConfig,
  logger: ServiceDeps<IdentityConfig>['logger'],
) {
  if (await users.byId(config.ADMIN_USER)) return;
  if (!config.ADMIN_PASSWORD)
    logger.warn(
      `No ADMIN_PASSWORD given: the administrator "${config.ADMIN_USER}" gets the password "admin". Set ADMIN_PASSWORD outside development.`,
    );
  const inserted = await users.insert({
    _id: config.ADMIN_USER,
    login: config.ADMIN_USER,
    fullname: '',
    email: '',
    roles: ['Manager'],
    groups: ['Administrators'],
    password_hash: await hashPassword(config.ADMIN_PASSWORD ?? 'admin'),
  });
  if (inserted) logger.info({ user: config.ADMIN_USER }, 'administrator created');
}
