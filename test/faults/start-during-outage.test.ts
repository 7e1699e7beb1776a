/**
 * A service (re)started while the broker is unreachable: it must not exit, must keep trying, must not report
 * itself ready before it has reached the broker when it publishes or consumes events, and must connect once the
 * broker is back; meanwhile writes go on, and afterwards every acknowledged write is in the store and the index
 * converges on it, without a manual step.
 */
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite, SERVICES, type Service } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';
import { WriteLedger, WriteStream } from '../support/write-ledger';

/** The services that publish or consume events (proto/EVENTS.md): they cannot be ready before reaching the broker. */
const EVENT_SERVICES: Service[] = ['content', 'search', 'identity'];

let suite: DistributedSuite;

describeWithBroker('faults: a service started during a broker outage', () => {
  beforeAll(async () => {
    suite = await DistributedSuite.prepare({
      logTailChars: 6000,
      name: 'faults-outage-start',
      proxied: true,
      env: { EVENT_FLUSH_TIMEOUT_MS: '500' },
    });
    await suite.startAll();
  }, 60_000);

  afterAll(() => suite?.dispose(), 30_000);

  // Each test on a whole suite, whatever the one before left.
  beforeEach(async () => {
    await Promise.all(suite.allProxies().map((proxy) => proxy.up()));
    await suite.reviveAll();
  }, 60_000);

  test.each([...SERVICES])('%s started while its broker is unreachable connects once it is back', (service) =>
    suite.withLogs(async () => {
      const ledger = await WriteLedger.inNewFolder(suite, `Started in an outage ${service}`);
      const stream = new WriteStream(ledger, { seed: SERVICES.indexOf(service) + 21, label: service });
      await stream.run(10);

      await suite.kill(service);
      const proxy = suite.proxy(service);
      await proxy.refuse();
      const refusedBefore = proxy.refused;
      const child = suite.start(service);
      const usesEvents = EVENT_SERVICES.includes(service);
      // It tried, was refused, and tried again: it survived a failed connection (counted, not timed). A service
      // without events may not need the broker at all: then being ready without it is as good.
      await pollUntil(
        async () =>
          !child.running ||
          proxy.refused >= refusedBefore + 2 ||
          (!usesEvents && (await suite.readiness())[service] === true),
        30_000,
        { description: `${service} to try the broker twice` },
      );
      if (!child.running) {
        throw new Error(
          `${service} exited (${JSON.stringify(child.exitStatus)}) when started while the broker was unreachable`,
        );
      }
      if (usesEvents) expect((await suite.readiness())[service]).toBe(false);

      // Writes while it waits for the broker.
      await stream.run(15);

      await proxy.up();
      await suite.untilReady();
      await stream.run(15);

      await ledger.verify();
    }),
  );
});
