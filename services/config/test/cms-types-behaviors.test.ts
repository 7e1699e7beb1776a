import { BEHAVIORS } from '@cms/shared';
import { PANEL_BEHAVIOR_NAMES, typeFormSchema } from '../src/domain/cms-types-panel';

/** The behaviors' names and words are written once (services/shared's BEHAVIORS): the panel's form shows those. */
describe("the cms-types panel's behaviors", () => {
  const form = typeFormSchema('http://localhost:8080') as {
    properties: Record<string, { title: string; description: string }>;
  };

  it('are every behavior, by title, in the words of the behavior itself', () => {
    expect([...PANEL_BEHAVIOR_NAMES].sort()).toEqual(Object.keys(BEHAVIORS).sort());
    for (const name of PANEL_BEHAVIOR_NAMES) {
      expect([name, form.properties[name].title, form.properties[name].description]).toEqual([
        name,
        BEHAVIORS[name].title,
        BEHAVIORS[name].description,
      ]);
    }
  });

  it('have a title each of their own, so the form and the Behaviors vocabulary tell them apart', () => {
    const titles = Object.values(BEHAVIORS).map((behavior) => behavior.title);
    expect(new Set(titles).size).toBe(titles.length);
  });
});
