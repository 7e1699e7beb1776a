/**
 * Content's handlers get the collaborators they use, not every one of `ContentDeps` (issue 28): each declaration is
 * made with `using(...)`, which the dispatcher honours (services/shared/test/http/dispatcher.test.ts).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { ENDPOINTS as CONTENT } from '../../services/content/src/api/endpoints';

const DECLARATIONS_FILE = resolve(__dirname, '../../services/content/src/api/declarations.ts');

/** The members of the `ContentDeps` interface, read from its source. */
function contentDepsMembers(): string[] {
  const source = ts.createSourceFile(
    DECLARATIONS_FILE,
    readFileSync(DECLARATIONS_FILE, 'utf8'),
    ts.ScriptTarget.ES2022,
    true,
  );
  const found = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'ContentDeps',
  );
  if (!found) throw new Error('ContentDeps is not declared in api/declarations.ts');
  return found.members.flatMap((m) => (m.name && ts.isIdentifier(m.name) ? [m.name.text] : []));
}

describe('content’s endpoints name the collaborators they use', () => {
  const members = contentDepsMembers();

  it('reads the collaborators from ContentDeps', () => {
    expect(members.length).toBeGreaterThan(20);
    expect(members).toEqual(expect.arrayContaining(['commands', 'repo', 'serializer', 'tus']));
  });

  it('every declaration of content is made with using(...), each name a member of ContentDeps', () => {
    const label = (d: (typeof CONTENT)[number]) => `@${d.name || '(context)'}`;
    expect(CONTENT.filter((d) => d.uses === undefined).map(label)).toEqual([]);
    const unknown = CONTENT.flatMap((d) =>
      (d.uses ?? []).filter((n) => !members.includes(n)).map((n) => `${label(d)}: ${n}`),
    );
    expect(unknown).toEqual([]);
  });

  it('no declaration uses all of them, and at most half', () => {
    const widest = Math.max(...CONTENT.map((d) => d.uses?.length ?? members.length));
    expect(widest).toBeLessThanOrEqual(Math.floor(members.length / 2));
  });
});
