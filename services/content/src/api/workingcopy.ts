/**
 * `@workingcopy`: `POST` checks the object out (a private copy beside it, owned by the caller; the original
 * locked), `GET` shows the check-out from either side, `PATCH` checks the copy in to the original, `DELETE`
 * cancels the check-out. The rules are in domain/working-copies/working-copies.ts.
 */
import { urlOf } from '@cms/shared';
import { z } from 'zod';
import { callerOf } from './caller';
import { using } from './declarations';

const { endpoint, operation } = using('workingCopies');

/** The check-in message: the comment of the version the check-in makes (none: an empty comment). */
const checkInBody = z.object({ message: z.string().max(10_000).optional() }).strict();

export const workingcopy = endpoint({
  name: 'workingcopy',
  service: 'content',
  context: 'content',
  operations: {
    GET: operation({
      summary: '`{working_copy, working_copy_of}` of the original or of its working copy (null when none)',
      permission: 'View',
      handle: async (call, { workingCopies }) => ({
        status: 200,
        body: await workingCopies.references(call.context, callerOf(call)),
      }),
    }),
    POST: operation({
      summary: 'Checks the object out: 201 with `{@id}` of its working copy (Location: the original)',
      permission: {
        rule: 'the check-out roles on the original, which no workflow state manages (WorkingCopies.checkOut)',
      },
      handle: async (call, { workingCopies }) => {
        const copy = await workingCopies.checkOut(call.context, callerOf(call));
        // As the original platform: Location names the object checked out, the body its working copy.
        return {
          status: 201,
          headers: { Location: urlOf(call.publicUrl, call.context.path ?? '/') },
          body: { '@id': urlOf(call.publicUrl, copy.path ?? '/') },
        };
      },
    }),
    PATCH: operation({
      summary: 'Checks the working copy in to the original (on either side); `message` comments the version',
      permission: { rule: 'the check-in roles on the original, whichever side is addressed (WorkingCopies.checkIn)' },
      body: checkInBody,
      handle: async (call, { workingCopies }) => {
        await workingCopies.checkIn(call.context, call.body.message, callerOf(call));
        return { status: 204 };
      },
    }),
    DELETE: operation({
      summary: 'Cancels the check-out (on either side): the working copy is deleted, the original released',
      permission: {
        rule: 'the check-in roles on the original, or the right to delete the copy (WorkingCopies.cancel)',
      },
      handle: async (call, { workingCopies }) => {
        await workingCopies.cancel(call.context, callerOf(call));
        return { status: 204 };
      },
    }),
  },
});
