/**
 * `@transactions` (Volto's Undo panel): `GET` lists the recent transactions of the site, newest first, in the
 * original's item shape; `PATCH {"transaction_ids": [...]}` undoes them (domain/transactions.ts), or refuses with
 * 409 what it cannot undo, writing nothing.
 */
import { z } from 'zod';
import { MAX_UNDO } from '../domain/transactions';
import { callerOf } from './caller';
import { endpoint, operation } from './declarations';

/** An id as listed: the opaque id, then the time and what it did (only the first word is read). */
const MAX_ID_LENGTH = 1000;

const undoBody = z
  .object({
    transaction_ids: z
      .array(z.string().trim().min(1, 'empty transaction id').max(MAX_ID_LENGTH, `longer than ${MAX_ID_LENGTH}`))
      .min(1, 'name at least one transaction')
      .max(MAX_UNDO, `at most ${MAX_UNDO} transactions at once`),
  })
  .strict();

export const transactions = endpoint({
  name: 'transactions',
  service: 'content',
  context: 'site-root',
  operations: {
    GET: operation({
      summary: 'The recent transactions of the site, newest first',
      permission: 'List undoable changes',
      handle: async (_call, deps) => ({ status: 200, body: await deps.transactions.list() }),
    }),
    PATCH: operation({
      summary: 'Undoes the named transactions; 409 (nothing undone) when a later change depends on one',
      permission: 'Undo changes',
      body: undoBody,
      handle: async (call, deps) => {
        await deps.transactions.undo(call.body.transaction_ids, callerOf(call));
        call.log.info({ transactions: call.body.transaction_ids.length }, 'transactions undone');
        return { status: 200, body: { message: 'Transactions have been reverted successfully.' } };
      },
    }),
  },
});
