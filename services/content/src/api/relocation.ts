import { z } from 'zod';

/** The body of `@copy` and `@move`: one URL (or site path, or UID) or a list of them. */
export const relocationBody = z
  .object({
    source: z.union([z.string().min(1).max(2000), z.array(z.string().min(1).max(2000)).min(1).max(1000)]),
  })
  .strict();

export function sourcesOf(body: z.infer<typeof relocationBody>): string[] {
  return Array.isArray(body.source) ? body.source : [body.source];
}
