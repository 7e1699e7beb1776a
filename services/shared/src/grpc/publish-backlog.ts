/**
 * `AwaitPublished` (content's and discussion's, proto/cms/events/v1/outbox.proto): a producer publishes the events
 * it has committed before the question and says what is left, so that search can tell "caught up" from "the
 * events wait in the producer's outbox" (read-your-writes when only the producer's broker link is down).
 */
import type { PublishBacklog, OutboxRelay } from '../events/outbox';
import type { Logger } from '../logging/logger';
import type * as grpc from '@grpc/grpc-js';
import type {
  AwaitPublishedRequest,
  AwaitPublishedRequest__Output,
} from '../generated/cms/events/v1/AwaitPublishedRequest';
import type { PublishBacklog__Output } from '../generated/cms/events/v1/PublishBacklog';
import { callUnary } from './client';
import { unary } from './server';

/** A caller cannot hold a producer's handler longer than this, whatever it asks. */
const MAX_AWAIT_PUBLISHED_MS = 30_000;
/** The wire field is 32 bits of milliseconds (49 days): an older backlog is reported as that. */
const MAX_AGE_MS = 0xffff_ffff;

/** The `AwaitPublished` handler of a service whose events go through `relay`. */
export function awaitPublishedRpc(relay: Pick<OutboxRelay, 'awaitPublished'>, log: Logger) {
  return {
    AwaitPublished: unary(log, async (request: AwaitPublishedRequest__Output): Promise<PublishBacklog__Output> => {
      const backlog = await relay.awaitPublished(Math.min(request.timeout_ms, MAX_AWAIT_PUBLISHED_MS));
      return {
        published: backlog.published,
        pending: backlog.pending,
        oldest_age_ms: Math.min(Math.round(backlog.oldestAgeMs), MAX_AGE_MS),
        disconnected: backlog.disconnected,
      };
    }),
  };
}

/** A producer's client as far as `AwaitPublished` goes (ContentServiceClient and DiscussionServiceClient are). */
export interface PublishBacklogClient {
  AwaitPublished(
    request: AwaitPublishedRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<PublishBacklog__Output>,
  ): unknown;
}

/** Asks a producer over `AwaitPublished`; rejects (an AppError) when it does not answer within `timeoutMs`. */
export async function askPublishBacklog(
  client: PublishBacklogClient,
  waitMs: number,
  options: { requestId: string; timeoutMs: number },
): Promise<PublishBacklog> {
  const answer = await callUnary<PublishBacklog__Output>(
    (md, o, cb) => client.AwaitPublished({ timeout_ms: Math.max(0, Math.round(waitMs)) }, md, o, cb),
    options,
  );
  return {
    published: answer.published,
    pending: answer.pending,
    oldestAgeMs: answer.oldest_age_ms,
    disconnected: answer.disconnected,
  };
}
