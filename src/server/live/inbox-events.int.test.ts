import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { createActor } from '@testing/engine/ops';
import { deskModel } from '@testing/engine/notify';
import { forEachDatabase } from '@testing/engine/store';
import { dispatchOutbox } from '@/engine/notify/dispatch';
import { LiveHub } from './hub';

const PASSWORD = 'correct horse battery';

/** The `inbox` events a stream was sent, and everything it was sent (to look for what must not be there). */
class Recorder {
  text = '';
  readonly sink = { write: (t: string) => void (this.text += t), end: () => undefined };

  unread(): number[] {
    return [...this.text.matchAll(/^event: inbox\ndata: (.*)$/gm)].map((m) => (JSON.parse(m[1]!) as { unread: number }).unread);
  }
}

async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

forEachDatabase('live streams: the bell', (database) => {
  let engine: TestEngine;
  let hub: LiveHub;

  beforeAll(async () => {
    engine = await openTestEngine(database, deskModel);
    hub = new LiveHub(engine, { coalesceMs: 20, settleMs: 50 });
    await hub.start();
  });
  afterAll(() => hub.stop());

  it("tells each user's own streams their unread count, and nothing of the record; reads lower it", async () => {
    const admin = await createActor(engine.store.db, ['agent'], 'Bell Admin');
    const agent = await createActor(engine.store.db, ['agent'], 'Bell Agent');
    const bystander = await createActor(engine.store.db, ['agent'], 'Bell Bystander');
    const connect = async (actor: typeof agent) => {
      const { session } = await engine.identity.signIn(actor.email, PASSWORD, { ip: '127.0.0.1' });
      const recorder = new Recorder();
      hub.connect(session.token, actor, recorder.sink);
      return recorder;
    };
    const [mine, myOtherTab, theirs] = [await connect(agent), await connect(agent), await connect(bystander)];
    // The count as it is when the stream opens.
    await until(() => mine.unread().length > 0 && theirs.unread().length > 0, 'the opening counts');
    expect(mine.unread()).toEqual([0]);

    const ticket = await engine.ops.create(admin, 'ticket', { subject: 'Bell rings', secret: 'SHH-123' });
    await engine.ops.update(admin, 'ticket', ticket.id, { assignee: agent.userId }, ticket.version);
    await dispatchOutbox({ model: deskModel, db: engine.store.db }, {}, Date.now() + 10_000);
    await until(() => mine.unread().at(-1) === 1 && myOtherTab.unread().at(-1) === 1, "the agent's bells to ring");
    expect(theirs.unread()).toEqual([0]);
    for (const text of [mine.text, theirs.text]) {
      expect(text).not.toContain('Bell rings');
      expect(text).not.toContain('SHH-123');
    }

    const [item] = (await engine.notifications.inbox(agent)).items;
    await engine.notifications.markRead(agent, item!.id);
    await until(() => mine.unread().at(-1) === 0, 'the bell to follow a read');
    expect(theirs.unread()).toEqual([0]);
  });
});
