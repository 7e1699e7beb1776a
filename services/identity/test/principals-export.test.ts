import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentStore, ExportedPrincipal } from '@cms/shared';
import { openEmbeddedStore } from '@cms/shared/adapters';
import { BUILTIN_GROUPS, type GroupDoc } from '../src/domain/groups';
import { exportedPrincipals } from '../src/domain/principals-export';
import type { UserDoc } from '../src/domain/user';
import { GroupsRepository } from '../src/store/groups';
import { UsersRepository } from '../src/store/users';

const group = (id: string, members: string[], roles: string[] = []): GroupDoc => ({
  _id: id,
  title: `The ${id}`,
  description: `About ${id}`,
  email: `${id}@example.org`,
  roles,
  members,
  version: 1,
});

const user = (id: string, roles: string[] = []): UserDoc => ({
  _id: id,
  login: `${id}@example.org`,
  fullname: `Full ${id}`,
  email: `${id}@example.org`,
  location: 'Lisbon',
  roles,
  password_hash: 'a-hash',
});

describe('exportedPrincipals (principals.json)', () => {
  let dataDir: string;
  let store: DocumentStore;
  let exported: ExportedPrincipal[];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'identity-principals-export-'));
    store = await openEmbeddedStore(dataDir);
    const users = new UsersRepository(store);
    const groups = new GroupsRepository(store);
    for (const builtin of BUILTIN_GROUPS) await groups.insert(builtin);
    await groups.insert(group('editors', ['jane', 'nested'], ['Editor']));
    await groups.insert(group('nested', ['ned']));
    await groups.insert(group('Reviewers-2', ['jane']));
    // More users than one page of the store's listing.
    await users.insert(user('jane', ['Member', 'Authenticated']));
    await users.insert(user('ned'));
    for (let i = 0; i < 250; i++) await users.insert(user(`u${String(i).padStart(3, '0')}`));
    exported = [];
    for await (const principal of exportedPrincipals(users, groups)) exported.push(principal);
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives every group, then every user once, in id order, across pages', () => {
    const groupIds = exported.flatMap((p) => (p.group ? [p.group.id] : []));
    const userIds = exported.flatMap((p) => (p.user ? [p.user.id] : []));
    expect(groupIds).toEqual([
      'Administrators',
      'Reviewers',
      'Reviewers-2',
      'Site Administrators',
      'editors',
      'nested',
    ]);
    expect(exported.findIndex((p) => p.user)).toBe(groupIds.length);
    expect(userIds).toHaveLength(252);
    expect(new Set(userIds).size).toBe(252);
    expect(userIds).toEqual([...userIds].sort());
  });

  it('gives direct memberships, own roles without the implicit ones, and no password hash', () => {
    const find = (id: string) => exported.find((p) => (p.group ?? p.user)?.id === id);
    expect(find('editors')).toEqual({
      group: {
        id: 'editors',
        title: 'The editors',
        description: 'About editors',
        email: 'editors@example.org',
        roles: ['Editor'],
        groups: [],
        members: ['jane', 'nested'],
      },
    });
    expect(find('nested')?.group).toMatchObject({ groups: ['editors'], members: ['ned'], roles: [] });
    expect(find('jane')).toEqual({
      user: {
        id: 'jane',
        login: 'jane@example.org',
        fullname: 'Full jane',
        email: 'jane@example.org',
        description: '',
        home_page: '',
        location: 'Lisbon',
        roles: ['Member'],
        groups: ['Reviewers-2', 'editors'],
      },
    });
    // ned is in editors through nested only: its direct group is nested.
    expect(find('ned')?.user?.groups).toEqual(['nested']);
    expect(JSON.stringify(exported)).not.toContain('a-hash');
  });
});
