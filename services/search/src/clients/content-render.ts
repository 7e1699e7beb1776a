import { callUnary, type ContentServiceClient, type Principal__Output } from '@cms/shared';

/** Content's full serializations of search results (`fullobjects`), asked for a whole batch in one call. */
export interface FullObjects {
  /** The serializations by UID; objects gone or not viewable by `principal` are absent. */
  render(
    uids: string[],
    principal: Principal__Output | null,
    publicUrl: string,
    requestId: string,
  ): Promise<Map<string, Record<string, unknown>>>;
}

export function remoteFullObjects(client: () => ContentServiceClient, timeoutMs: number): FullObjects {
  return {
    async render(uids, principal, publicUrl, requestId) {
      if (uids.length === 0) return new Map();
      const content = client();
      const { objects } = await callUnary<{ objects: { uid: string; json: Buffer }[] }>(
        (md, o, cb) =>
          content.RenderMany({ uids, principal: principal ?? undefined, public_url: publicUrl }, md, o, cb),
        { requestId, timeoutMs },
      );
      return new Map(objects.map((o) => [o.uid, JSON.parse(o.json.toString('utf8')) as Record<string, unknown>]));
    },
  };
}
