/**
 * AMQP 0-9-1 frames on the wire, for a TcpProxy that loses deliveries: what the broker sends a consumer while the
 * network is failing, before the connection drops. The broker counts such a delivery as handed over (unacked);
 * the consumer never sees it, and the broker returns it to the queue when the connection closes.
 */
import type { StreamFilter } from './tcp-proxy';

const FRAME_HEADER_BYTES = 7;
const FRAME_END_BYTES = 1;
const METHOD_FRAME = 1;
const BASIC_CLASS = 60;
const BASIC_DELIVER = 60;

/** Drops every basic.deliver (with its content header and body frames) from broker to client while `losing`. */
export class DeliveryLoss {
  /** Whether deliveries are lost now; a delivery already started is finished as it began. */
  losing = false;
  /** Deliveries dropped so far. */
  lost = 0;

  /** The filter for one connection (broker to client). */
  filter(): StreamFilter {
    let pending: Buffer = Buffer.alloc(0);
    /** Channels whose current delivery is being dropped. */
    const dropping = new Set<number>();
    return (chunk) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      const kept: Buffer[] = [];
      let offset = 0;
      while (pending.length - offset >= FRAME_HEADER_BYTES) {
        const type = pending.readUInt8(offset);
        const channel = pending.readUInt16BE(offset + 1);
        const size = pending.readUInt32BE(offset + 3);
        const end = offset + FRAME_HEADER_BYTES + size + FRAME_END_BYTES;
        if (pending.length < end) break;
        if (type === METHOD_FRAME) {
          const classId = pending.readUInt16BE(offset + FRAME_HEADER_BYTES);
          const methodId = pending.readUInt16BE(offset + FRAME_HEADER_BYTES + 2);
          const deliver = classId === BASIC_CLASS && methodId === BASIC_DELIVER;
          if (deliver && this.losing) {
            dropping.add(channel);
            this.lost++;
          } else {
            dropping.delete(channel);
          }
        }
        // Content header and body frames belong to the delivery before them on their channel.
        if (!dropping.has(channel)) kept.push(pending.subarray(offset, end));
        offset = end;
      }
      pending = pending.subarray(offset);
      return kept.length === 1 ? kept[0] : Buffer.concat(kept);
    };
  }
}
