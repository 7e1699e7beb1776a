/**
 * Issue 25, item 3: events are facts only if their owner confirms them. Well-formed events that no producer sent,
 * published straight to `cms.events`, change nothing: a forged identity removal strips no live principal's local
 * roles (content asks identity), and a forged content event makes the content rules act on no real object (config
 * asks content). Each consumer logs the refusal with the event's id, which is how the test knows it was handled.
 */
import { type EventEnvelope } from '@cms/shared';
import { randomUUID } from 'node:crypto';
import { BrokerClient } from '../support/broker-client';
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite, uniqueWord } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';

let suite: DistributedSuite;
let broker: BrokerClient;

function forged(type: string, payload: unknown): EventEnvelope {
  return { id: randomUUID(), type, occurredAt: new Date().toISOString(), payload } as EventEnvelope;
}

/** Resolves once `process` has logged `message` for the event (it handled and refused it). */
function refused(process: 'content' | 'config', event: EventEnvelope, message: string): Promise<true> {
  return pollUntil(
    () =>
      suite
        .process(process)
        .output.split('\n')
        .some((line) => line.includes(event.id) && line.includes(message)) || undefined,
    20_000,
    { description: `${process} refusing the forged ${event.type} (${message})` },
  );
}

describeWithBroker('faults: forged events change no state', () => {
  beforeAll(async () => {
    // Six processes starting at once on a busy CI machine: more time to be ready than the harness's default.
    suite = await DistributedSuite.prepare({
      name: 'faults-forged-events',
      logTailChars: 6000,
      readyTimeoutMs: 90_000,
    });
    await suite.startAll();
    broker = await BrokerClient.connect(suite.amqpUrl);
  }, 120_000);

  afterAll(async () => {
    await broker?.close();
    await suite?.dispose();
  }, 30_000);

  test('a forged identity.user.removed / identity.group.removed strips no live principal of its local roles', () =>
    suite.withLogs(async () => {
      const word = uniqueWord();
      const folder = `/team-${word}`;
      const user = `ivy-${word}`;
      const group = `crew-${word}`;
      await suite.expectHttp(201, 'POST', '/', { '@type': 'Folder', id: folder.slice(1), title: `Team ${word}` });
      await suite.expectHttp(201, 'POST', '/@users', {
        username: user,
        email: `${user}@example.org`,
        password: 'a-password-1',
      });
      await suite.expectHttp(201, 'POST', '/@groups', { groupname: group, title: `Crew ${word}` });
      await suite.expectHttp(204, 'POST', `${folder}/@sharing`, {
        entries: [
          { id: user, type: 'user', roles: { Editor: true } },
          { id: group, type: 'group', roles: { Reader: true } },
        ],
      });
      const granted = async () =>
        ((await suite.expectHttp(200, 'GET', `${folder}/@sharing`)).entries as { id: string; roles: object }[])
          .filter((entry) => entry.id === user || entry.id === group)
          .map((entry) => ({ id: entry.id, roles: entry.roles }));
      const before = await granted();
      expect(before.map((entry) => entry.id).sort()).toEqual([group, user].sort());

      const userRemoved = forged('identity.user.removed', { user_id: user });
      const groupRemoved = forged('identity.group.removed', { group_id: group });
      // A user's id in a group removal (and the other way round): the local roles share one namespace.
      const crossed = forged('identity.group.removed', { group_id: user });
      for (const event of [userRemoved, groupRemoved, crossed]) await broker.publishEvent(event);
      for (const event of [userRemoved, groupRemoved, crossed])
        await refused('content', event, 'removal names a principal identity still has');

      expect(await granted()).toEqual(before);
    }));

  test('forged content events make the content rules act on no real object', () =>
    suite.withLogs(async () => {
      const word = uniqueWord();
      const inbox = `inbox-${word}`;
      const copies = `copies-${word}`;
      const elsewhere = `elsewhere-${word}`;
      for (const id of [inbox, copies, elsewhere])
        await suite.expectHttp(201, 'POST', '/', { '@type': 'Folder', id, title: `Folder ${id}` });
      const victim = await suite.expectHttp(201, 'POST', `/${elsewhere}`, {
        '@type': 'Document',
        id: 'victim',
        title: `Victim ${word}`,
      });
      const resident = await suite.expectHttp(201, 'POST', `/${inbox}`, {
        '@type': 'Document',
        id: 'resident',
        title: `Resident ${word}`,
      });
      for (const event of ['Object added to this container', 'Object modified', 'Object moved', 'Object removed']) {
        const rule = await suite.expectHttp(201, 'POST', '/@controlpanels/content-rules', {
          title: `${event} ${word}`,
          event,
        });
        await suite.expectHttp(201, 'POST', `/@controlpanels/content-rules/${rule.id}/action`, {
          type: 'cms.actions.Copy',
          target_folder: `/${copies}`,
        });
        await suite.expectHttp(200, 'POST', `/${inbox}/@content-rules/${rule.id}`);
      }

      const uid = victim.UID as string;
      const inboxUid = (await suite.expectHttp(200, 'GET', `/${inbox}`)).UID as string;
      const elsewhereUid = (await suite.expectHttp(200, 'GET', `/${elsewhere}`)).UID as string;
      // The victim as its events show it, but said to be in the ruled folder.
      const snapshot = {
        uid,
        path: `/${inbox}/victim`,
        id: 'victim',
        portal_type: 'Document',
        title: `Victim ${word}`,
        review_state: 'private',
        version: 1,
        creators: ['admin'],
        parent_uid: inboxUid,
        created: new Date().toISOString(),
        modified: new Date().toISOString(),
        position: 0,
      };
      const events: [EventEnvelope, string][] = [
        [forged('content.added', { uid, version: 1, snapshot }), 'event does not match the object as content has it'],
        [
          forged('content.modified', { uid, version: 1, changed: ['title'], snapshot }),
          'event does not match the object as content has it',
        ],
        [
          forged('content.moved', {
            uid,
            version: 1,
            old_path: `/${elsewhere}/victim`,
            new_path: `/${inbox}/victim`,
            old_parent_uid: elsewhereUid,
            new_parent_uid: inboxUid,
            snapshot,
          }),
          'event does not match the object as content has it',
        ],
        [
          forged('content.added', {
            uid: resident.UID as string,
            version: 50,
            snapshot: {
              ...snapshot,
              uid: resident.UID as string,
              path: `/${inbox}/resident`,
              id: 'resident',
              version: 50,
            },
          }),
          'event does not match the object as content has it',
        ],
        [
          forged('content.removed', {
            uid: resident.UID as string,
            version: 2,
            path: `/${inbox}/resident`,
            removed_uids: [resident.UID as string],
          }),
          'removal names an object content still has',
        ],
      ];
      for (const [event] of events) await broker.publishEvent(event);
      for (const [event, message] of events) await refused('config', event, message);

      const copied = async () =>
        ((await suite.expectHttp(200, 'GET', `/${copies}?b_size=1000`)).items as { title: string }[]).map(
          (item) => item.title,
        );
      expect(await copied()).toEqual([]);
      expect((await suite.http('GET', `/${inbox}/resident`)).status).toBe(200);
      expect((await suite.http('GET', `/${elsewhere}/victim`)).status).toBe(200);
      // The rules do act on what really happens: a page really added is copied.
      await suite.expectHttp(201, 'POST', `/${inbox}`, { '@type': 'Document', id: 'real', title: `Real ${word}` });
      await pollUntil(async () => (await copied()).includes(`Real ${word}`) || undefined, 30_000, {
        description: 'the really added page copied',
      });
      expect(await copied()).not.toContain(`Victim ${word}`);
      expect(await copied()).not.toContain(`Resident ${word}`);
    }));
});
