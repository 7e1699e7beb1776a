import type { Principal__Output } from '@cms/shared';

/** Who a request is made by, and what of the request the rules need besides its body. */
export interface Caller {
  principal: Principal__Output | null;
  requestId: string;
  publicUrl: string;
  /** The request's `Lock-Token` header: lets the holder of a lock write to the locked object. */
  lockToken?: string;
}
