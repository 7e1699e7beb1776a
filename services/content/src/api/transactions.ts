/**
 * `@transactions` (Volto's Undo panel): `GET` lists the recent transactions of the site, newest first, in the
 * original's item shape; `PATCH {"transaction_ids": [...]}` undoes them (domain/history/transactions.ts), or refuses with
 * 409 what it cannot undo, writing nothing.
 */
import { z } from 'zod';
import { MAX_UNDO } from '../domain/history';
import { callerOf } from './caller';
import { using } from './declarations';

const { endpoint, operation } = using('transactions');

/** An id as listed: the opaque id, then the time and what it did (only the first word is read). */
const MAX_ID_LENGTH = 1000;

/** As many entries as the log lists at most (TRANSACTION_LOG_SIZE): Volto's Undo panel sends one per listed row. */
const MAX_ENTRIES = 10_000;

const undoBody = z
  .object({
    // Empty entries name nothing and are skipped, as the original does: Volto's Undo panel sends "" for every row
    // left unchecked.
    transaction_ids: z
      .array(z.string().trim().max(MAX_ID_LENGTH, `longer than ${MAX_ID_LENGTH}`))
      .max(MAX_ENTRIES, `at most ${MAX_ENTRIES} entries`)
      .transform((ids) => ids.filter((id) => id !== ''))
      .pipe(
        z
          .array(z.string())
          .min(1, 'name at least one transaction')
          .max(MAX_UNDO, `at most ${MAX_UNDO} transactions at once`),
      ),
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
