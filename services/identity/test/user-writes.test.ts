/** A failed user write changes nothing: the portrait beside the record, the groups a new user joins. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DocumentStore, type EventEnvelope, type Principal } from '@cms/shared';
import { openEmbeddedStore } from '@cms/shared/adapters';
import { GroupCommands } from '../src/domain/groups';
import { Memberships } from '../src/domain/groups-membership';
import type { GroupDoc } from '../src/domain/group';
import type { StoredPortrait } from '../src/domain/users-repository';
import { UserCommands, type UserCaller } from '../src/domain/users';
import type { UserDoc } from '../src/domain/user';
import { GroupsRepository } from '../src/store/groups';
import { UsersRepository } from '../src/store/users';

const GIF = 'R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const ADMIN: UserCaller = {
  principal: { id: 'admin', roles: ['Manager'], groups: [], fullname: '' } as Principal as UserCaller['principal'],
  requestId: 'req-1',
};
const self = (id: string): UserCaller => ({
  principal: { id, roles: ['Member'], groups: [], fullname: '' } as Principal as UserCaller['principal'],
  requestId: 'req-2',
});

/** Users whose conditional writes can be made to lose, and whose portrait store can be made to fail. */
class FlakyUsers extends UsersRepository {
  contended = false;
  portraitsDown = false;

  updateAt(id: string, version: number | undefined, changes: Partial<UserDoc>, events: EventEnvelope[]) {
    return this.contended ? Promise.resolve(false) : super.updateAt(id, version, changes, events);
  }

  replacePortrait(portrait: StoredPortrait) {
    return this.portraitsDown ? Promise.reject(new Error('portraits unavailable')) : super.replacePortrait(portrait);
  }
}

/** Groups whose conditional writes to the ids in `contended` always lose. */
class FlakyGroups extends GroupsRepository {
  contended = new Set<string>();

  updateAt(id: string, version: number | undefined, changes: Partial<GroupDoc>, events: EventEnvelope[]) {
    return this.contended.has(id) ? Promise.resolve(false) : super.updateAt(id, version, changes, events);
  }
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('user writes that fail', () => {
  let dataDir: string;
  let store: DocumentStore;
  let users: FlakyUsers;
  let groups: FlakyGroups;
  let commands: UserCommands;
  let waits: number[];

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'identity-user-writes-'));
    store = await openEmbeddedStore(dataDir);
    users = new FlakyUsers(store);
    groups = new FlakyGroups(store);
    await users.ensureIndexes();
    await groups.ensureIndexes();
    waits = [];
    const relay = { flushUser: async () => undefined, flushGroup: async () => undefined };
    const changes = { userChanged: async () => undefined, allChanged: async () => undefined };
    const retry = { sleep: async (ms: number) => void waits.push(ms) };
    const memberships = new Memberships(groups);
    commands = new UserCommands(
      users,
      groups,
      memberships,
      relay,
      { useEmailAsLogin: async () => false },
      changes,
      1024,
      retry,
    );
    await new GroupCommands(groups, users, memberships, relay, changes, retry).ensureBuiltins();
    await commands.create(ADMIN, () => ({ username: 'ann', password: 'ann-password', fullname: 'Ann' }));
    await commands.update(ADMIN, 'ann', () => ({
      portrait: { 'content-type': 'image/gif', data: GIF, encoding: 'base64' as const, filename: 'first.gif' },
    }));
  });

  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const newPortrait = { 'content-type': 'image/png', data: PNG, encoding: 'base64' as const, filename: 'second.png' };

  it('puts the previous portrait back when the user record cannot be written', async () => {
    users.contended = true;
    const error = await failure(commands.update(ADMIN, 'ann', () => ({ fullname: 'Changed', portrait: newPortrait })));
    expect(error).toMatchObject({ type: 'Conflict' });
    expect(waits).toHaveLength(4);
    expect(await users.portrait('ann')).toMatchObject({ filename: 'first.gif', content_type: 'image/gif', data: GIF });
    expect((await users.byId('ann'))?.fullname).toBe('Ann');
  });

  it('puts the portrait back when its removal goes with a record write that fails', async () => {
    users.contended = true;
    await failure(commands.update(ADMIN, 'ann', () => ({ fullname: 'Changed', portrait: null })));
    expect(await users.portrait('ann')).toMatchObject({ filename: 'first.gif' });
  });

  it('writes nothing of the user when the portrait cannot be stored', async () => {
    users.portraitsDown = true;
    expect(
      await failure(commands.update(ADMIN, 'ann', () => ({ fullname: 'Changed', portrait: newPortrait }))),
    ).toEqual(new Error('portraits unavailable'));
    expect(await users.byId('ann')).toMatchObject({ fullname: 'Ann', version: 2 });
    expect((await users.portrait('ann'))?.filename).toBe('first.gif');
  });

  it('stores no portrait for a change refused on the current record (wrong old password)', async () => {
    const error = await failure(
      commands.update(self('ann'), 'ann', () => ({
        password: 'new-password',
        old_password: 'wrong',
        portrait: newPortrait,
      })),
    );
    expect(error).toMatchObject({ type: 'BadRequest' });
    expect((await users.portrait('ann'))?.filename).toBe('first.gif');
  });

  it('stores the portrait and the record together when both can be written', async () => {
    await commands.update(ADMIN, 'ann', () => ({ fullname: 'Changed', portrait: newPortrait }));
    expect((await users.portrait('ann'))?.filename).toBe('second.png');
    expect((await users.byId('ann'))?.fullname).toBe('Changed');
  });

  it('takes a new user back when it cannot join every group asked for', async () => {
    groups.contended.add('Reviewers');
    const error = await failure(
      commands.create(ADMIN, () => ({
        username: 'bob',
        password: 'bob-password',
        groups: ['Administrators', 'Reviewers'],
      })),
    );
    expect(error).toMatchObject({
      type: 'Conflict',
      message: 'The group Reviewers is being changed by others; try again',
    });
    expect(await users.byId('bob')).toBeNull();
    expect((await groups.byId('Administrators'))?.members).toEqual([]);

    groups.contended.clear();
    const again = await commands.create(ADMIN, () => ({
      username: 'bob',
      password: 'bob-password',
      groups: ['Reviewers'],
    }));
    expect(again.groups.map((g) => g.id)).toEqual(['AuthenticatedUsers', 'Reviewers']);
  });
});
