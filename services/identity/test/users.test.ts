/** The user and group rules over the embedded store: permissions, e-mail login, removal with its event. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError, type DocumentStore, type EventEnvelope, type Principal } from '@cms/shared';
// Only the dispatcher makes proofs; a test of the domain stands in for it.
import { grant } from '../../../services/shared/src/permissions/granted';
import { openEmbeddedStore } from '@cms/shared/adapters';
import { GroupCommands } from '../src/domain/groups';
import { Memberships } from '../src/domain/groups-membership';
import { UserDirectory } from '../src/domain/user-directory';
import { NullDenial, UserCommands, type UserCaller } from '../src/domain/users';
import { GroupsRepository } from '../src/store/groups';
import { UsersRepository } from '../src/store/users';

const GIF = 'R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=';

const caller = (id: string | null, roles: string[] = ['Member']): UserCaller => ({
  principal: id ? ({ id, roles, groups: [], fullname: '' } as Principal as UserCaller['principal']) : null,
  requestId: 'req-1',
});
const ADMIN = caller('admin', ['Manager']);
/** The admin as `@groups` hands it to the group commands: with the dispatcher's proof of "Manage users". */
const GROUP_ADMIN = { ...ADMIN, proof: grant('Manage users', '/', 'admin') };

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('user and group rules', () => {
  let dataDir: string;
  let store: DocumentStore;
  let users: UsersRepository;
  let groups: GroupsRepository;
  let commands: UserCommands;
  let groupCommands: GroupCommands;
  let directory: UserDirectory;
  let emailLogin: boolean;
  let changed: string[];
  let flushed: string[];

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'identity-users-'));
    store = await openEmbeddedStore(dataDir);
    users = new UsersRepository(store);
    groups = new GroupsRepository(store);
    await users.ensureIndexes();
    await groups.ensureIndexes();
    const memberships = new Memberships(groups);
    emailLogin = false;
    changed = [];
    flushed = [];
    const relay = {
      flushUser: async (id: string) => void flushed.push(`user:${id}`),
      flushGroup: async (id: string) => void flushed.push(`group:${id}`),
    };
    const settings = { useEmailAsLogin: async () => emailLogin };
    const changes = {
      userChanged: async (id: string) => void changed.push(id),
      allChanged: async () => void changed.push('*'),
    };
    commands = new UserCommands(users, groups, memberships, relay, settings, changes, 1024);
    groupCommands = new GroupCommands(groups, users, memberships, relay, changes);
    await groupCommands.ensureBuiltins();
    directory = new UserDirectory(users, groups, memberships);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const create = (username: string, extra: Record<string, unknown> = {}) =>
    commands.create(ADMIN, () => ({ username, password: `${username}-pw`, ...extra }));

  it('creates users with role Member by default and refuses duplicates', async () => {
    const view = await create('ann');
    expect(view).toMatchObject({ user: { _id: 'ann', login: 'ann', roles: ['Member'] }, roles: ['Member'] });
    expect(view.user.password_hash).toMatch(/^scrypt\$/);
    expect(await failure(create('ann'))).toMatchObject({ type: 'Conflict' });
    expect(await failure(create('Reviewers'))).toMatchObject({ type: 'Conflict' });
  });

  it('derives the id from the e-mail when the e-mail is the login', async () => {
    emailLogin = true;
    const refused = (await failure(create('ann', { email: 'ann@example.com' }))) as AppError;
    expect(refused.errors?.map((e) => e.field)).toEqual(['username']);
    const view = await commands.create(ADMIN, () => ({ email: 'Ann@Example.com', password: 'pw-12345' }));
    expect(view.user).toMatchObject({ _id: 'ann@example.com', login: 'ann@example.com', email: 'Ann@Example.com' });
    expect((await users.byLogin('ANN@example.com'))?._id).toBe('ann@example.com');
  });

  it('reads the body only once the caller may write', async () => {
    const read = jest.fn(() => ({ username: 'x', password: 'x-password' }));
    expect(await failure(commands.create(caller('bob'), read))).toBeInstanceOf(NullDenial);
    expect(read).not.toHaveBeenCalled();
  });

  it('denies with NullDenial: listing and reading others, own roles, removal', async () => {
    await create('ann');
    await create('bob');
    const ann = caller('ann');
    expect(await failure(commands.list(ann, { limit: 25 }))).toBeInstanceOf(NullDenial);
    expect(await failure(commands.list(caller(null), { limit: 25 }))).toBeInstanceOf(NullDenial);
    expect(await failure(commands.get(ann, 'bob'))).toBeInstanceOf(NullDenial);
    expect((await commands.get(ann, 'ann')).user._id).toBe('ann');
    expect(await failure(commands.update(ann, 'ann', () => ({ roles: { Manager: true } })))).toBeInstanceOf(NullDenial);
    expect(await failure(commands.update(ann, 'bob', () => ({ fullname: 'B' })))).toBeInstanceOf(NullDenial);
    expect(await failure(commands.remove(ann, 'bob'))).toBeInstanceOf(NullDenial);
    // Managers through a group are Managers.
    await groupCommands.update(GROUP_ADMIN, 'Administrators', () => ({ users: { ann: true } }));
    const viaGroup = caller('ann', (await directory.principal('ann'))!.roles);
    expect((await commands.list(viaGroup, { limit: 25 })).total).toBe(2);
  });

  it('announces password, role and membership changes, not profile changes', async () => {
    await create('ann');
    await commands.update(caller('ann'), 'ann', () => ({ fullname: 'Ann' }));
    expect(changed).toEqual([]);
    await commands.update(ADMIN, 'ann', () => ({ roles: { Editor: true } }));
    await commands.update(ADMIN, 'ann', () => ({ password: 'new-password' }));
    await groupCommands.update(GROUP_ADMIN, 'Reviewers', () => ({ users: { ann: true } }));
    expect(changed).toEqual(['ann', 'ann', '*']);
    const stored = await users.byId('ann');
    expect(stored).toMatchObject({ fullname: 'Ann', roles: ['Member', 'Editor'], version: 4 });
  });

  it('removes a user as a tombstone carrying identity.user.removed, then lets the id be used again', async () => {
    await create('ann', { groups: ['Reviewers'] });
    await commands.update(ADMIN, 'ann', () => ({
      portrait: { 'content-type': 'image/gif', data: GIF, encoding: 'base64' as const, filename: 'a.gif' },
    }));
    await commands.remove(ADMIN, 'ann');
    expect(flushed).toEqual(['user:ann']);
    expect(changed).toContain('ann');
    expect(await users.byId('ann')).toBeNull();
    expect(await users.byLogin('ann')).toBeNull();
    expect(await users.portrait('ann')).toBeNull();
    expect((await groups.byId('Reviewers'))?.members).toEqual([]);
    const tombstone = await users.users.findOne({ _id: 'ann' });
    expect(tombstone).toMatchObject({ _deleted: true, _pending: true });
    expect(tombstone?.password_hash).toBeUndefined();
    const [event] = tombstone?._outbox as EventEnvelope[];
    expect(event).toMatchObject({ type: 'identity.user.removed', payload: { user_id: 'ann' }, requestId: 'req-1' });
    expect(await failure(commands.remove(ADMIN, 'ann'))).toMatchObject({ type: 'NotFound' });

    const again = await create('ann', { fullname: 'Second Ann' });
    expect(again.user.fullname).toBe('Second Ann');
    const replaced = await users.users.findOne({ _id: 'ann' });
    expect(replaced?._deleted).toBeUndefined();
    expect((replaced?._outbox as EventEnvelope[]).map((e) => e.id)).toEqual([event.id]);
  });

  it('removes a group as a tombstone carrying identity.group.removed, and from the groups that held it', async () => {
    await create('ann');
    await groupCommands.create(GROUP_ADMIN, () => ({ groupname: 'team', users: ['ann'] }));
    await groupCommands.update(GROUP_ADMIN, 'Reviewers', () => ({ groups: ['team'] }));
    expect((await directory.principal('ann'))?.roles).toEqual(['Member', 'Reviewer']);
    await groupCommands.remove(GROUP_ADMIN, 'team');
    expect(flushed).toEqual(['group:team']);
    expect((await directory.principal('ann'))?.roles).toEqual(['Member']);
    expect((await groups.byId('Reviewers'))?.members).toEqual([]);
    const tombstone = await groups.groups.findOne({ _id: 'team' });
    expect((tombstone?._outbox as EventEnvelope[])[0]).toMatchObject({
      type: 'identity.group.removed',
      payload: { group_id: 'team' },
    });
  });

  it('describes and searches principals for other services', async () => {
    await create('ann', { fullname: 'Ann Example' });
    await groupCommands.update(GROUP_ADMIN, 'Reviewers', () => ({ users: { ann: true } }));
    expect(await directory.describe(['ann', 'Reviewers', 'AuthenticatedUsers', 'ghost', 'ann'])).toEqual([
      { id: 'ann', title: 'Ann Example', type: 'user', roles: ['Member', 'Reviewer'] },
      { id: 'Reviewers', title: 'Reviewers', type: 'group', roles: ['Reviewer'] },
      { id: 'AuthenticatedUsers', title: 'Logged-in users', type: 'group', roles: [] },
    ]);
    expect((await directory.search('EXAMPLE', 10)).map((s) => s.id)).toEqual(['ann']);
    expect((await directory.search('admin', 10)).map((s) => s.id)).toEqual(['Administrators', 'Site Administrators']);
  });
});
