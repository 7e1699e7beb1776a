/**
 * The broker connections of running services cut (a network blip), refused for a while (an outage), and cut while
 * deliveries are on the wire, through a TcpProxy per service in front of the run's own virtual host: every
 * acknowledged write is in the store and the index converges on it, without a manual step.
 */
import { DeliveryLoss } from '../support/amqp-frames';
import { BrokerClient } from '../support/broker-client';
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';
import { WriteLedger, WriteStream } from '../support/write-ledger';

/** What search's broker connection carries to it; deliveries are lost only when a test says so. */
const searchDeliveries = new DeliveryLoss();
let suite: DistributedSuite;
let broker: BrokerClient;

describeWithBroker('faults: broker connections cut and refused', () => {
  beforeAll(async () => {
    suite = await DistributedSuite.prepare({
      logTailChars: 6000,
      name: 'faults-cuts',
      proxied: true,
      proxyOptions: (service) => (service === 'search' ? { downstream: () => searchDeliveries.filter() } : {}),
      // Writes made while the broker is away answer after this long (their events wait in the outbox).
      env: { EVENT_FLUSH_TIMEOUT_MS: '500' },
    });
    await suite.startAll();
    broker = await BrokerClient.connect(suite.amqpUrl);
  }, 60_000);

  afterAll(async () => {
    await broker?.close();
    await suite?.dispose();
  }, 30_000);

  // Each test on a whole suite, whatever the one before left.
  beforeEach(async () => {
    searchDeliveries.losing = false;
    await Promise.all(suite.allProxies().map((proxy) => proxy.up()));
    await suite.reviveAll();
  }, 60_000);

  test('every service’s connection cut three times mid-stream', () =>
    suite.withLogs(async () => {
      const ledger = await WriteLedger.inNewFolder(suite, 'Cuts');
      const stream = new WriteStream(ledger, { seed: 11, label: 'cut' });

      const writes = stream.run(60);
      for (const at of [15, 30, 45]) {
        await stream.untilAttempted(at);
        const accepted = suite.allProxies().map((proxy) => proxy.accepted);
        for (const proxy of suite.allProxies()) proxy.cut();
        // Each service has connected again before the next cut.
        await pollUntil(() => suite.allProxies().every((proxy, i) => proxy.accepted > accepted[i]), 30_000, {
          description: 'every service to reconnect to the broker',
        });
      }
      await writes;
      await suite.untilReady();
      await stream.run(20);

      await ledger.verify();
    }));

  test('a broker outage mid-stream: writes go on, and all converge after it', () =>
    suite.withLogs(async () => {
      const ledger = await WriteLedger.inNewFolder(suite, 'Outage');
      const stream = new WriteStream(ledger, { seed: 12, label: 'outage' });

      const writes = stream.run(30);
      await stream.untilAttempted(10);
      const eventServices = ['content', 'search', 'identity'] as const;
      const refusedBefore = eventServices.map((service) => suite.proxy(service).refused);
      await Promise.all(suite.allProxies().map((proxy) => proxy.refuse()));
      // The services that publish or consume events have felt it: they tried to reconnect, and were refused.
      await pollUntil(
        () => eventServices.every((service, i) => suite.proxy(service).refused > refusedBefore[i]),
        30_000,
        { description: 'content, search and identity to try to reconnect during the outage' },
      );
      await writes;
      // Content commits writes without the broker; their events wait in its outbox.
      const acknowledgedBefore = ledger.counts.acked;
      await stream.run(12);
      expect(ledger.counts.acked).toBeGreaterThan(acknowledgedBefore);

      await Promise.all(suite.allProxies().map((proxy) => proxy.up()));
      await suite.untilReady();
      await stream.run(20);

      await ledger.verify();
    }));

  test('deliveries lost with search’s connection more times than the delivery limit are still applied', () =>
    suite.withLogs(async () => {
      const ledger = await WriteLedger.inNewFolder(suite, 'Lost deliveries');
      await ledger.untilIndexConverged();
      const deadBefore = await broker.queueDepth('cms.search.dead');
      const proxy = suite.proxy('search');

      // The broker hands search these events, which the network loses before the connection drops: six times over,
      // more than the delivery limit (5). Not one of them ever reached search's handler, let alone failed in it.
      searchDeliveries.losing = true;
      let lostBefore = searchDeliveries.lost;
      for (let i = 0; i < 5; i++) expect(await ledger.create(ledger.nextTitle('lost'))).toBe('acked');
      const rounds: string[] = [];
      for (let round = 1; round <= 6; round++) {
        await pollUntil(
          async () =>
            searchDeliveries.lost >= lostBefore + 5 || (await broker.queueDepth('cms.search.dead')) > deadBefore,
          30_000,
          { description: `search to be handed the 5 events again (round ${round})` },
        );
        rounds.push(`round ${round}: ${searchDeliveries.lost - lostBefore} deliveries lost`);
        lostBefore = searchDeliveries.lost;
        proxy.cut();
      }
      searchDeliveries.losing = false;
      await suite.untilReady();

      await ledger.verify(20_000).catch((error: Error) => {
        error.message += `\n${rounds.join('\n')}`;
        throw error;
      });
      expect(await broker.queueDepth('cms.search.dead')).toBe(deadBefore);
    }));
});
