/** The comment rules without I/O: where discussion is on, who sees and may change what, thread order, ids, dates. */
import {
  byId,
  capabilitiesOf,
  checkLength,
  commentDate,
  discussionAllowed,
  isDeletable,
  isEditable,
  nextCommentId,
  threadOrder,
  withReplies,
  type Capabilities,
  type CommentDoc,
} from '../src/domain/comment';
import { DEFAULT_SETTINGS } from '../src/domain/settings';

const SITE = { state: null, localRoles: [] };
const ON = { ...DEFAULT_SETTINGS, globallyEnabled: true };

function comment(id: string, inReplyTo: string | null, extra: Partial<CommentDoc> = {}): CommentDoc {
  return {
    _id: id,
    content_uid: 'a'.repeat(32),
    in_reply_to: inReplyTo,
    text: `text ${id}`,
    mime_type: 'text/plain',
    author_username: 'ann',
    author_name: null,
    author_email: null,
    user_notification: null,
    review_state: 'published',
    created: '2030-01-01T00:00:00.000Z',
    modified: '2030-01-01T00:00:00.000Z',
    version: 1,
    ...extra,
  };
}

const principal = (id: string, roles: string[] = ['Member']) => ({ id, roles, groups: [], fullname: id });
const caller = (id: string | null, roles?: string[]): Capabilities =>
  capabilitiesOf(id === null ? null : principal(id, roles), SITE, ON, true);

describe('discussionAllowed (addendum §3)', () => {
  const object = (allowDiscussion: boolean | null, typeAllowsDiscussion = false) => ({
    allowDiscussion,
    typeAllowsDiscussion,
    uid: 'a'.repeat(32),
  });
  it('needs the global switch, then the object, else its type', () => {
    expect(discussionAllowed(DEFAULT_SETTINGS, object(true))).toBe(false);
    expect(discussionAllowed(ON, object(true))).toBe(true);
    expect(discussionAllowed(ON, object(false, true))).toBe(false);
    expect(discussionAllowed(ON, object(null, true))).toBe(true);
    expect(discussionAllowed(ON, object(null))).toBe(false);
    expect(discussionAllowed(ON, { ...object(true), uid: null })).toBe(false);
  });
});

describe('who may do what', () => {
  it('lets the author edit, the author and moderators delete', () => {
    const own = comment('1', null);
    expect(isEditable(own, caller('ann'))).toBe(true);
    expect(isEditable(own, caller('bob'))).toBe(false);
    expect(isEditable(own, caller('boss', ['Manager']))).toBe(false);
    expect(isEditable(own, capabilitiesOf(principal('ann'), SITE, { ...ON, editCommentEnabled: false }, true))).toBe(
      false,
    );
    expect(isDeletable(own, caller('ann'))).toBe(true);
    expect(isDeletable(own, caller('bob'))).toBe(false);
    expect(isDeletable(own, caller('rev', ['Reviewer']))).toBe(true);
    expect(isDeletable(comment('2', null, { author_username: null }), caller(null))).toBe(false);
  });

  it('lets anonymous callers reply only with anonymous comments on, and nobody where discussion is off', () => {
    expect(caller(null).canReply).toBe(false);
    expect(capabilitiesOf(null, SITE, { ...ON, anonymousComments: true }, true).canReply).toBe(true);
    expect(caller('ann').canReply).toBe(true);
    expect(capabilitiesOf(principal('ann'), SITE, ON, false).canReply).toBe(false);
  });
});

describe('threadOrder', () => {
  const thread = [
    comment('30', null),
    comment('10', null),
    comment('21', '10'),
    comment('20', '10'),
    comment('25', '20'),
    comment('40', '99'),
  ];
  it('puts each comment before its replies, siblings oldest first, and leaves out orphans', () => {
    expect(threadOrder(thread, caller('bob')).map((c) => c._id)).toEqual(['10', '20', '25', '21', '30']);
  });

  it('shows pending comments, and their replies, only to their author and moderators', () => {
    const held = thread.map((c) =>
      c._id === '20'
        ? { ...c, review_state: 'pending' as const, author_username: 'ann' }
        : { ...c, author_username: 'x' },
    );
    expect(threadOrder(held, caller('bob')).map((c) => c._id)).toEqual(['10', '21', '30']);
    expect(threadOrder(held, caller('ann')).map((c) => c._id)).toEqual(['10', '20', '25', '21', '30']);
    expect(threadOrder(held, caller('rev', ['Reviewer'])).map((c) => c._id)).toHaveLength(5);
  });

  it('finds a comment with every reply below it', () => {
    expect(withReplies('10', thread).sort()).toEqual(['10', '20', '21', '25']);
  });
});

describe('ids, dates and lengths', () => {
  it('makes increasing numeric ids that compare as numbers', () => {
    const ids = [nextCommentId(1000), nextCommentId(1000), nextCommentId(999)];
    expect(new Set(ids).size).toBe(3);
    const docs = ids.map((id) => comment(id, null));
    expect(
      [...docs]
        .reverse()
        .sort(byId)
        .map((c) => c._id),
    ).toEqual(ids);
    expect(byId(comment('9', null), comment('10', null))).toBeLessThan(0);
  });

  it('writes dates with +00:00 and no fraction', () => {
    expect(commentDate('2030-01-02T03:04:05.678Z')).toBe('2030-01-02T03:04:05+00:00');
  });

  it('counts characters, not UTF-16 units, against the limit', () => {
    const settings = { ...ON, maxCommentLength: 3 };
    expect(() => checkLength('😀😀😀', settings)).not.toThrow();
    expect(() => checkLength('abcd', settings)).toThrow(/longer than 3/);
    expect(() => checkLength(' \n', settings)).toThrow(/empty/);
  });
});
