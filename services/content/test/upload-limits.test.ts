import { gatewayConfigSchema } from '@cms/gateway';
import { loadConfig } from '@cms/shared';
import { contentConfigSchema } from '../src/config';

/** What a JSON body around one upload adds besides its base64 data (other fields, member names). */
const ENVELOPE_ALLOWANCE = 1024 * 1024;

describe('default upload limits', () => {
  const content = loadConfig(contentConfigSchema, {});
  const gateway = loadConfig(gatewayConfigSchema, {});
  const base64Length = Math.ceil(content.MAX_UPLOAD_BYTES / 3) * 4;

  it('lets an upload at MAX_UPLOAD_BYTES through the gateway, in base64 inside JSON', () => {
    expect(base64Length + ENVELOPE_ALLOWANCE).toBeLessThanOrEqual(gateway.MAX_BODY_BYTES);
  });

  it('lets that body, and the bytes of a download, through gRPC', () => {
    expect(gateway.MAX_BODY_BYTES + ENVELOPE_ALLOWANCE).toBeLessThanOrEqual(gateway.MAX_MESSAGE_BYTES);
    expect(gateway.MAX_BODY_BYTES + ENVELOPE_ALLOWANCE).toBeLessThanOrEqual(content.MAX_MESSAGE_BYTES);
  });
});
