/**
 * The connection `npm run import` and `npm run export` make to a running suite: content, identity and discussion
 * found as
 * `toolTarget` says (their *_ADDRESS variables, else the embedded mode's addresses file), calls signed with
 * SERVICE_AUTH_KEY (else the embedded mode's key from that file), and the user who runs it authenticated through
 * identity.
 */
import {
  address,
  callUnary,
  ConfigError,
  createClient,
  exitOnHelp,
  protos,
  serviceAuthEnv,
  toolTarget,
  useServiceKeys,
  type ContentServiceClient,
  type DiscussionServiceClient,
  type IdentityServiceClient,
  type Principal__Output,
} from '@cms/shared';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

export interface SessionConfig {
  user: string;
  password: string;
  contentAddress?: string;
  identityAddress?: string;
  discussionAddress?: string;
  dataDir: string;
  timeoutMs: number;
  maxMessageBytes: number;
  serviceKey?: string;
  previousServiceKey?: string;
}

/** The settings both tools read, `<prefix>_USER` and so on (`prefix` is IMPORT or EXPORT). */
export function sessionSchema(prefix: 'IMPORT' | 'EXPORT'): z.ZodType<SessionConfig, z.ZodTypeDef, unknown> {
  const key = (name: string) => `${prefix}_${name}`;
  return z
    .object({
      [key('USER')]: z.string().min(1).default('admin'),
      [key('PASSWORD')]: z.string({ required_error: 'required' }).min(1),
      SERVICE_AUTH_KEY: serviceAuthEnv.SERVICE_AUTH_KEY,
      SERVICE_AUTH_PREVIOUS_KEY: serviceAuthEnv.SERVICE_AUTH_PREVIOUS_KEY,
      CONTENT_ADDRESS: address.optional(),
      IDENTITY_ADDRESS: address.optional(),
      DISCUSSION_ADDRESS: address.optional(),
      DATA_DIR: z.string().min(1).default('./data'),
      [key('TIMEOUT_MS')]: z.coerce.number().int().positive().default(60_000),
      // Largest gRPC message: an object with its files.
      [key('MAX_MESSAGE_BYTES')]: z.coerce
        .number()
        .int()
        .positive()
        .default(64 * 1024 * 1024),
    })
    .transform((env) => ({
      user: env[key('USER')] as string,
      password: env[key('PASSWORD')] as string,
      contentAddress: env.CONTENT_ADDRESS as string | undefined,
      identityAddress: env.IDENTITY_ADDRESS as string | undefined,
      discussionAddress: env.DISCUSSION_ADDRESS as string | undefined,
      dataDir: env.DATA_DIR as string,
      timeoutMs: env[key('TIMEOUT_MS')] as number,
      maxMessageBytes: env[key('MAX_MESSAGE_BYTES')] as number,
      serviceKey: env.SERVICE_AUTH_KEY as string | undefined,
      previousServiceKey: env.SERVICE_AUTH_PREVIOUS_KEY as string | undefined,
    }));
}

export interface SuiteSession {
  content: ContentServiceClient;
  identity: IdentityServiceClient;
  discussion: DiscussionServiceClient;
  principal: Principal__Output;
  close(): void;
}

export async function openSession(config: SessionConfig): Promise<SuiteSession> {
  const identityAt = toolTarget(
    'identity',
    { variable: 'IDENTITY_ADDRESS', address: config.identityAddress },
    config.dataDir,
    '127.0.0.1:50052',
  );
  const contentAt = toolTarget(
    'content',
    { variable: 'CONTENT_ADDRESS', address: config.contentAddress },
    config.dataDir,
    '127.0.0.1:50051',
  );
  const discussionAt = toolTarget(
    'discussion',
    { variable: 'DISCUSSION_ADDRESS', address: config.discussionAddress },
    config.dataDir,
    '127.0.0.1:50054',
  );
  // The key the services verify: SERVICE_AUTH_KEY, else the embedded mode's own from its addresses file.
  useServiceKeys({
    SERVICE_AUTH_KEY: config.serviceKey ?? contentAt.serviceKey,
    SERVICE_AUTH_PREVIOUS_KEY: config.previousServiceKey,
  });
  const identity = createClient(protos().identity.IdentityService, identityAt.address, 4 * 1024 * 1024);
  const content = createClient(protos().content.ContentService, contentAt.address, config.maxMessageBytes);
  const discussion = createClient(protos().discussion.DiscussionService, discussionAt.address, config.maxMessageBytes);
  const closeAll = () => {
    content.close();
    identity.close();
    discussion.close();
  };
  try {
    const principal = await callUnary<Principal__Output>(
      (md, o, cb) => identity.Authenticate({ basic: { login: config.user, password: config.password } }, md, o, cb),
      { requestId: randomUUID(), timeoutMs: config.timeoutMs },
    ).catch((error: Error) => {
      throw new Error(`${error.message} (identity service at ${identityAt.address}, from ${identityAt.from})`);
    });
    return { content, identity, discussion, principal, close: closeAll };
  } catch (error) {
    closeAll();
    throw error;
  }
}

/**
 * A tool's process: `--help` answers without connecting; one folder argument, else the usage (exit 2); `run`'s
 * answer is the exit code; an error is one line on stderr (exit 1).
 */
export function runFolderCommand(name: string, usage: string, run: (folder: string) => Promise<number>): void {
  const args = process.argv.slice(2);
  const done = (code: number) => process.exit(code);
  exitOnHelp(usage, args);
  if (args.length !== 1 || args[0].startsWith('-')) {
    process.stderr.write(usage);
    return done(2);
  }
  run(args[0]).then(done, (error: Error) => {
    console.error(error instanceof ConfigError ? error.message : `${name} failed: ${error.message}`);
    done(1);
  });
}
