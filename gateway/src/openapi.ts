import DOCUMENT from './openapi.generated.json';

/**
 * The API's OpenAPI 3.1 document, generated at build time from the services' endpoint declarations
 * (scripts/openapi-gen.mjs), so the gateway serves it without loading any service's code. The server URL is the
 * public URL the request was addressed to.
 */
export function openApiDocument(publicUrl: string): Record<string, unknown> {
  return { ...DOCUMENT, servers: [{ url: publicUrl }] };
}
