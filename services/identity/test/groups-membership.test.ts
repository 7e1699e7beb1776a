import { BUILTIN_GROUPS, type GroupDoc } from '../src/domain/groups';
import { InMemoryGroups, Memberships } from '../src/domain/groups-membership';
import { principalOf, type UserDoc } from '../src/domain/user';

const group = (id: string, members: string[], roles: string[] = []): GroupDoc => ({
  _id: id,
  title: id.toUpperCase(),
  description: '',
  email: '',
  roles,
  members,
  version: 1,
});

const user = (id: string, roles = ['Member']): UserDoc => ({
  _id: id,
  login: id,
  fullname: `Full ${id}`,
  email: '',
  roles,
  password_hash: 'x',
});

describe('Memberships', () => {
  const memberships = new Memberships(
    new InMemoryGroups([
      ...BUILTIN_GROUPS.map((g) => (g._id === 'Reviewers' ? { ...g, members: ['editors', 'rita'] } : g)),
      group('editors', ['ed', 'nested'], ['Editor']),
      group('nested', ['ned']),
      // A cycle: a and b contain each other.
      group('a', ['b', 'cy'], ['Reader']),
      group('b', ['a'], ['Contributor']),
    ]),
  );

  it('gives a user the groups it is in, through nesting, and AuthenticatedUsers', async () => {
    expect(await memberships.ofUser('ned')).toEqual({
      groups: ['AuthenticatedUsers', 'Reviewers', 'editors', 'nested'],
      roles: expect.arrayContaining(['Reviewer', 'Editor']),
    });
    expect(await memberships.ofUser('nobody')).toEqual({ groups: ['AuthenticatedUsers'], roles: [] });
  });

  it('stops on cycles', async () => {
    const { groups, roles } = await memberships.ofUser('cy');
    expect(groups).toEqual(['AuthenticatedUsers', 'a', 'b']);
    expect(roles.sort()).toEqual(['Contributor', 'Reader']);
  });

  it('adds the roles of its groups to a principal, each once', async () => {
    const principal = principalOf(user('ed', ['Member', 'Editor']), await memberships.ofUser('ed'));
    expect(principal).toEqual({
      id: 'ed',
      roles: ['Member', 'Editor', 'Reviewer'],
      groups: ['AuthenticatedUsers', 'Reviewers', 'editors'],
      fullname: 'Full ed',
    });
  });

  it('lists the users of groups, nested members included; AuthenticatedUsers means everyone', async () => {
    expect((await memberships.usersIn(['Reviewers'])).sort()).toEqual(['ed', 'ned', 'rita']);
    expect(await memberships.usersIn(['Administrators'])).toEqual([]);
    expect((await memberships.usersIn(['a']))?.sort()).toEqual(['cy']);
    expect(await memberships.usersIn(['Reviewers', 'AuthenticatedUsers'])).toBeNull();
  });

  it('gives a group the roles of the groups that contain it', async () => {
    expect((await memberships.rolesOfGroup(group('nested', ['ned']))).sort()).toEqual(['Editor', 'Reviewer']);
  });
});
