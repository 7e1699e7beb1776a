import type { Granted, Principal__Output } from '@cms/shared';

/** Who a request is made by, and what of the request the rules need besides its body. */
export interface Caller {
  principal: Principal__Output | null;
  requestId: string;
  publicUrl: string;
  /** The request's `Lock-Token` header: lets the holder of a lock write to the locked object. */
  lockToken?: string;
  /**
   * The dispatcher's proofs of the permissions it checked on the request's context: the write path takes them
   * instead of checking those permissions on that object again. None for calls the dispatcher did not check.
   */
  granted?: readonly Granted[];
  /** The proof of the endpoint's own permission on the context: what a write that names none needs. */
  proof?: Granted;
}
