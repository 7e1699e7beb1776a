import { AppError, callUnary, createClient, protos, type ConfigServiceClient, type Logger } from '@cms/shared';
import type { LoginSettings } from '../domain/users-repository';

export const EMAIL_LOGIN_RECORD = 'cms.use_email_as_login';

interface RecordValues {
  values_json: Record<string, string>;
}

/**
 * The registry records identity depends on, read from the config service
 * (`GetRecords`) when needed: they change rarely and are read on rare writes,
 * so nothing is cached. A record the config service does not know is unset
 * (false); an unreachable config service fails the write (503), rather than
 * create an account under the wrong rule.
 */
export function registrySettings(
  address: string,
  timeoutMs: number,
  maxMessageBytes: number,
  log: Logger,
): LoginSettings & { close(): void } {
  let client: ConfigServiceClient | undefined;
  const connect = () => (client ??= createClient(protos().config.ConfigService, address, maxMessageBytes));
  return {
    async useEmailAsLogin(requestId: string): Promise<boolean> {
      const config = connect();
      try {
        const result = await callUnary<RecordValues>(
          (md, o, cb) => config.GetRecords({ names: [EMAIL_LOGIN_RECORD] }, md, o, cb),
          { requestId, timeoutMs },
        );
        const raw = result.values_json[EMAIL_LOGIN_RECORD];
        return raw !== undefined && JSON.parse(raw) === true;
      } catch (error) {
        if (error instanceof AppError && error.type === 'NotFound') {
          log.warn(
            { record: EMAIL_LOGIN_RECORD, requestId },
            'registry record unknown to the config service; taken as false',
          );
          return false;
        }
        throw error;
      }
    },
    close: () => client?.close(),
  };
}
