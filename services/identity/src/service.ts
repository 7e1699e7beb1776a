import {
  identifiersOf,
  protos,
  RegistrySettings,
  serveEndpoints,
  siteRootOnly,
  serveGrpc,
  serviceLifecycle,
  storeAndBusReady,
  type RegistryReader,
  type RunningService,
  type ServiceDeps,
  type ServiceParts,
} from '@cms/shared';
import { smtpMailSender } from '@cms/shared/adapters';
import { withClientAddress } from './api/client-address';
import { ENDPOINTS } from './api/endpoints';
import { identityRpcs } from './api/grpc';
import { principalRpcs } from './api/principals-rpc';
import { principalsExportRpc } from './api/principals-export-rpc';
import { registrySettings } from './clients/registry';
import type { IdentityConfig } from './config';
import { Authenticator } from './domain/authenticator';
import { InvalidationHub } from './domain/invalidations';
import { MailQuota } from './domain/mail-quota';
import { hashPassword } from './domain/passwords';
import { PasswordResets } from './domain/password-reset';
import { SiteMail } from './domain/site-mail';
import { LoginThrottle, throttleSettingsOf, type ThrottleClock } from './domain/throttle';
import { TokenService } from './domain/tokens';
import { GroupCommands } from './domain/groups';
import { Memberships } from './domain/groups-membership';
import { newTokenGeneration, type UserDoc } from './domain/user';
import { UserDirectory } from './domain/user-directory';
import { UserCommands } from './domain/users';
import { WritePath } from './domain/write-path';
import { broadcastInvalidations } from './events/invalidation-broadcast';
import { IdentityEventRelay } from './events/relay';
import { GroupsRepository } from './store/groups';
import { PasswordResetsRepository } from './store/password-resets';
import { UsersRepository } from './store/users';

/** What a test may put in place of the real thing. */
export interface IdentityServiceOptions {
  /** The login throttle's clock and sleep, so a test can record the delays asked for instead of timing them. */
  throttleClock?: ThrottleClock;
}

export function startIdentityService(
  deps: ServiceDeps<IdentityConfig>,
  options: IdentityServiceOptions = {},
): Promise<RunningService> {
  return serviceLifecycle<IdentityConfig>((started, parts) => startIdentity(started, parts, options))(deps);
}

async function startIdentity(
  { config, logger, store, bus }: ServiceDeps<IdentityConfig>,
  parts: ServiceParts,
  options: IdentityServiceOptions,
) {
  const users = new UsersRepository(store);
  await users.ensureIndexes();
  await bootstrapAdministrator(users, config, logger);
  // Where user and group changes are announced to every gateway (and to the credential cache below).
  const invalidations = new InvalidationHub(logger);
  // ...including the gateways watching the other identity replicas.
  const replicas = await broadcastInvalidations(invalidations, bus, logger);
  parts.onStop('invalidation broadcast', () => replicas.stop());
  // Users, groups (membership gives roles) and their removal events.
  const groups = new GroupsRepository(store);
  await groups.ensureIndexes();
  const memberships = new Memberships(groups);
  const directory = new UserDirectory(users, groups, memberships);
  const relay = new IdentityEventRelay(users.users, groups.groups, bus, logger, config.EVENT_FLUSH_TIMEOUT_MS);
  await relay.ensureIndexes();
  const settings = registrySettings(config.CONFIG_ADDRESS, config.CALL_TIMEOUT_MS, config.MAX_MESSAGE_BYTES, logger);
  parts.onStop('settings', () => settings.close());
  const userCommands = new UserCommands(
    users,
    groups,
    memberships,
    relay,
    settings,
    invalidations,
    config.PORTRAIT_MAX_BYTES,
  );
  const groupCommands = new GroupCommands(groups, users, memberships, relay, invalidations);
  await groupCommands.ensureBuiltins();
  relay.start();
  parts.onStop('event relay', () => relay.stop());
  // The principal of a verified user (Basic, @login, Bearer), built from the current records.
  const principalFor = (user: UserDoc) => directory.principalOf(user);
  const throttle = new LoginThrottle(store, throttleSettingsOf(config), options.throttleClock);
  await throttle.ensureIndexes();
  const tokens = new TokenService({
    secret: await TokenService.signingKey(store, config.JWT_SECRET),
    ttlSeconds: config.TOKEN_TTL_SECONDS,
    users,
    store,
    invalidations,
    principalOf: principalFor,
  });
  await tokens.ensureIndexes();
  const authenticator = new Authenticator(users, config.CREDENTIAL_CACHE_TTL_MS, {
    throttle,
    tokens,
    invalidations,
    principalOf: principalFor,
  });
  // The mail panel's settings, read when a reset mail is sent (the config service may start after this one).
  let registry: RegistrySettings | undefined;
  const registryReader: RegistryReader = {
    get: (names, requestId) =>
      (registry ??= new RegistrySettings({
        address: config.CONFIG_ADDRESS,
        timeoutMs: config.CALL_TIMEOUT_MS,
        maxMessageBytes: config.MAX_MESSAGE_BYTES,
        log: logger,
      })).get(names, requestId),
  };
  // Connecting, the greeting and each exchange bounded well within the call's deadline, so that a mail server that
  // does not answer fails the send with a clear 503 instead of the gateway's timeout.
  const mail = smtpMailSender(registryReader, { timeoutMs: Math.max(1000, Math.floor(config.CALL_TIMEOUT_MS / 4)) });
  parts.onStop('mail', () => {
    mail.close();
    registry?.close();
  });
  const mailQuota = new MailQuota(store, {
    perPrincipal: config.MAIL_SENDS_PER_PRINCIPAL,
    perClient: config.MAIL_SENDS_PER_CLIENT,
    windowSeconds: config.MAIL_SEND_WINDOW_SECONDS,
  });
  await mailQuota.ensureIndexes();
  const resetTokens = new PasswordResetsRepository(store);
  await resetTokens.ensureIndexes();
  const userWrites = new WritePath(users, {
    kind: 'user',
    flush: (id) => relay.flushUser(id),
    changes: invalidations,
  });
  // Reset mails go to the user's own address, asked for by anyone: counted per user and per asking address.
  const resetQuota = new MailQuota(
    store,
    {
      perPrincipal: config.RESET_MAILS_PER_USER,
      perClient: config.RESET_MAILS_PER_CLIENT,
      windowSeconds: config.RESET_MAIL_WINDOW_SECONDS,
    },
    { collection: 'reset_mail_quota', principalLabel: 'to this user' },
  );
  await resetQuota.ensureIndexes();
  const resets = new PasswordResets(users, resetTokens, userWrites, mail, resetQuota, logger);
  const siteMail = new SiteMail(mail, registryReader, mailQuota);
  const deps = {
    authenticator,
    tokens,
    accounts: users,
    users: userCommands,
    groups: groupCommands,
    resets,
    siteMail,
  };

  const server = await serveGrpc(
    parts,
    { config, logger },
    {
      address: config.IDENTITY_GRPC_ADDRESS,
      services: [
        {
          name: 'cms.identity.v1.IdentityService',
          definition: protos().identity.IdentityService.service,
          implementation: {
            Handle: withClientAddress(
              serveEndpoints({
                service: 'identity',
                identifiers: identifiersOf(config),
                endpoints: ENDPOINTS,
                deps,
                contexts: siteRootOnly(),
                logger,
              }),
            ),
            ...identityRpcs(authenticator, users, logger, invalidations),
            ...principalRpcs(directory, logger),
            ...principalsExportRpc(users, groups, logger),
          },
        },
      ],
      healthCheck: storeAndBusReady(store, bus),
    },
  );
  // Registered after the server, so ended before it: open watch streams would hold its graceful shutdown.
  parts.onStop('invalidation streams', () => invalidations.close());
  return { address: server.address };
}

/** Addendum §2: an administrator with role Manager exists from the start. */
async function bootstrapAdministrator(
  users: UsersRepository,
  config: IdentityConfig,
  logger: ServiceDeps<IdentityConfig>['logger'],
) {
  if (await users.byId(config.ADMIN_USER)) {
    // The password is set on the first start only; later changes go through @users.
    if (config.ADMIN_PASSWORD)
      logger.warn(
        `ADMIN_PASSWORD is ignored: the administrator "${config.ADMIN_USER}" already exists, and the password applies on the first start only. Change it with PATCH /@users/${config.ADMIN_USER}, or reset the data.`,
      );
    return;
  }
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
    password_hash: await hashPassword(config.ADMIN_PASSWORD ?? 'admin'),
    token_generation: newTokenGeneration(),
  });
  if (inserted) logger.info({ user: config.ADMIN_USER }, 'administrator created');
}
