/** The mail control panel's registry records (services/config/src/domain/panel-records.ts, `MAIL`), read and checked. */
import type { RegistrySettings } from '../grpc/registry-settings';

export const MAIL_RECORDS = {
  host: 'cms.smtp_host',
  port: 'cms.smtp_port',
  user: 'cms.smtp_userid',
  password: 'cms.smtp_pass',
  fromAddress: 'cms.email_from_address',
  fromName: 'cms.email_from_name',
} as const;

export interface MailSettings {
  host: string;
  port: number;
  /** Set only when the server wants ESMTP authentication. */
  user?: string;
  password?: string;
  /** Empty when the site has none (mail is then off). */
  fromAddress: string;
  fromName?: string;
}

/** Where registry values come from: `RegistrySettings`, or anything with its `get`. */
export type RegistryReader = Pick<RegistrySettings, 'get'>;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** The current mail settings; a missing or mistyped value falls back to the panel's default. */
export async function readMailSettings(registry: RegistryReader, requestId: string): Promise<MailSettings> {
  const values = await registry.get(Object.values(MAIL_RECORDS), requestId);
  const port = values[MAIL_RECORDS.port];
  return {
    host: text(values[MAIL_RECORDS.host]) ?? 'localhost',
    port: typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65536 ? port : 25,
    user: text(values[MAIL_RECORDS.user]),
    password: typeof values[MAIL_RECORDS.password] === 'string' ? (values[MAIL_RECORDS.password] as string) : undefined,
    fromAddress: text(values[MAIL_RECORDS.fromAddress]) ?? '',
    fromName: text(values[MAIL_RECORDS.fromName]),
  };
}
