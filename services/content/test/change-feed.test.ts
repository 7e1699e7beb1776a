import { newEvent } from '@cms/shared';
import { ChangeFeed } from '../src/events/change-feed';
import { purgeTargetsOf } from '../src/events/purge-consumer';

describe('the change feed', () => {
  it('names the paths written after a point, each once', () => {
    const feed = new ChangeFeed();
    feed.record(['/a']);
    const point = feed.current;
    feed.record(['/b']);
    feed.record(['/a', '/c']);
    feed.record(['/b']);
    const answer = feed.since(feed.epoch, point);
    expect(answer).toMatchObject({ epoch: feed.epoch, seq: point + 3, reset: false });
    expect(answer.paths.sort()).toEqual(['/a', '/b', '/c']);
    expect(feed.since(feed.epoch, feed.current)).toMatchObject({ paths: [], reset: false });
  });

  it('tells a caller of another epoch, from the future or further behind than it keeps to start over', () => {
    const feed = new ChangeFeed(10);
    for (let i = 0; i < 30; i++) feed.record([`/d${i}`]);
    expect(feed.since('', 0).reset).toBe(true);
    expect(feed.since(feed.epoch, 0).reset).toBe(true);
    expect(feed.since(feed.epoch, feed.current + 1).reset).toBe(true);
    expect(feed.since(feed.epoch, feed.current - 5)).toMatchObject({ reset: false });
    expect(feed.since(feed.epoch, feed.current - 5).paths).toHaveLength(5);
  });
});

describe('purge targets', () => {
  const snapshot = (path: string) => ({ path }) as never;

  it('are the object and its parent listing, both places of a move, with the UID as tag', () => {
    expect(
      purgeTargetsOf(newEvent('content.modified', { uid: 'u', version: 2, changed: [], snapshot: snapshot('/f/doc') })),
    ).toEqual({ uid: 'u', paths: ['/f/doc', '/f'] });
    expect(
      purgeTargetsOf(
        newEvent('content.moved', {
          uid: 'u',
          version: 3,
          old_path: '/f/doc',
          new_path: '/g/doc',
          old_parent_uid: 'f',
          new_parent_uid: 'g',
          snapshot: snapshot('/g/doc'),
        }),
      ),
    ).toEqual({ uid: 'u', paths: ['/f/doc', '/f', '/g/doc', '/g'] });
    expect(
      purgeTargetsOf(newEvent('content.removed', { uid: 'u', version: 4, path: '/top', removed_uids: ['u'] })),
    ).toEqual({
      uid: 'u',
      paths: ['/top', '/'],
    });
  });
});

describe('a change feed with a source it does not follow', () => {
  it('answers reset until the source is followed again', () => {
    const feed = new ChangeFeed();
    feed.record(['/a']);
    feed.following('registry', false);
    expect(feed.since(feed.epoch, feed.current).reset).toBe(true);
    feed.following('registry', true);
    expect(feed.since(feed.epoch, feed.current).reset).toBe(false);
  });
});
