/**
 * Content types edited in distributed mode: config, content and the gateway as their own processes. A field
 * added through `@types` (decided by config) and a behavior switched in the `cms-types` panel (config alone) are
 * taken by content on the very next request, also after config restarted. Runs the built `dist/` entry points.
 */
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite, uniqueWord } from '../support/distributed-suite';

let suite: DistributedSuite;

describeWithBroker('type editing in distributed mode', () => {
  beforeAll(async () => {
    suite = await DistributedSuite.prepare({ name: 'type-editing' });
    await suite.startAll();
  }, 60_000);

  afterAll(async () => {
    await suite?.dispose();
  }, 30_000);

  test('a field added through @types is written and read on the very next request', () =>
    suite.withLogs(async () => {
      for (let round = 0; round < 5; round++) {
        const title = `Extra ${round} ${uniqueWord()}`;
        const added = await suite.expectHttp(201, 'POST', '/@types/Document', {
          factory: 'label_textline_field',
          title,
        });
        const name = title.toLowerCase().replace(/[^a-z0-9]+/g, '_');
        expect(added).toMatchObject({ title, type: 'string' });
        const doc = await suite.expectHttp(201, 'POST', '/', { '@type': 'Document', title, [name]: `value ${round}` });
        expect(doc[name]).toBe(`value ${round}`);
        expect((await suite.http('GET', doc['@id'] as string)).body[name]).toBe(`value ${round}`);
      }
    }));

  test('a behavior switched in the panel changes what content takes on the next request, also after config restarts', () =>
    suite.withLogs(async () => {
      await suite.expectHttp(201, 'POST', '/@controlpanels/cms-types', { title: 'Dish' });
      await suite.expectHttp(204, 'PATCH', '/@controlpanels/cms-types/dish', { 'cms.leadimage': true });
      const dish = await suite.expectHttp(201, 'POST', '/', { '@type': 'dish', title: 'Soup', image_caption: 'Hot' });
      expect(dish.image_caption).toBe('Hot');

      await suite.kill('config');
      suite.start('config');
      await suite.untilReady();
      await suite.expectHttp(204, 'PATCH', '/@controlpanels/cms-types/dish', { 'cms.leadimage': false });
      const refused = await suite.http('PATCH', dish['@id'] as string, { image_caption: 'Cold' });
      expect(refused.status).toBe(400);
      expect((await suite.http('GET', dish['@id'] as string)).body).not.toHaveProperty('image_caption');
    }));
});
