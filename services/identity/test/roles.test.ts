import { AppError } from '@cms/shared';
import { ASSIGNABLE_ROLES, checkAssignable, displayRoles, ROLE_LISTING } from '../src/domain/roles';

describe('roles', () => {
  it('assigns every role of the model but Anonymous, Authenticated and Owner', () => {
    expect([...ASSIGNABLE_ROLES].sort()).toEqual([...ROLE_LISTING].sort());
    expect(ASSIGNABLE_ROLES).not.toContain('Owner');
  });

  it('refuses unknown roles naming each', () => {
    expect(() => checkAssignable(['Editor', 'Reader'], 'roles')).not.toThrow();
    let error: unknown;
    try {
      checkAssignable(['Editor', 'Owner', 'Authenticated', 'Boss'], 'roles');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).errors?.map((e) => e.field)).toEqual([
      'roles.Owner',
      'roles.Authenticated',
      'roles.Boss',
    ]);
    expect(() => checkAssignable(['Authenticated'], 'roles', ['Authenticated'])).not.toThrow();
  });

  it('displays roles sorted, each once, without pseudo roles', () => {
    expect(displayRoles(['Reviewer', 'Member', 'Authenticated', 'Reviewer', 'Anonymous'])).toEqual([
      'Member',
      'Reviewer',
    ]);
  });
});
