import { isNoAnswer, Refused, type Api, type Ticket } from './api';
import { problemCode } from './http';

/**
 * Every write the server acknowledged (a 2xx received), with the version and values it answered.
 * What is acknowledged must survive anything: a crash, a shutdown, a database outage.
 */
export class Ledger {
  /** The latest acknowledged state of each ticket. */
  readonly acked = new Map<number, Ticket>();
  /** Acknowledged writes (creates, updates, transitions). */
  writes = 0;
  attempts = 0;
  /** Writes with no HTTP answer (the server died or closed the connection): their outcome is unknown. */
  noAnswer = 0;
  /** Non-2xx answers to writes, by "status code" ("503 SERVICE_UNAVAILABLE"). */
  readonly refusals = new Map<string, number>();
  /** The file each acknowledged create attached, with the text it holds, by ticket id. */
  readonly files = new Map<number, { readonly id: number; readonly text: string }>();

  acknowledge(ticket: Ticket): void {
    this.writes++;
    const previous = this.acked.get(ticket.id);
    if (!previous || previous.version <= ticket.version) this.acked.set(ticket.id, ticket);
  }

  refused(key: string): void {
    this.refusals.set(key, (this.refusals.get(key) ?? 0) + 1);
  }

  refusalText(): string {
    return [...this.refusals].map(([key, n]) => `${n}× ${key}`).join(', ');
  }
}

/** A request that has been sent and not yet settled (for counting what was in flight at a signal). */
export interface Flight {
  readonly startedAt: number;
  /** null while in flight; then the HTTP status, or the socket error's code. */
  outcome: number | string | null;
}

const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;

export interface WriterOptions {
  readonly writer: number;
  /** Whom tickets are assigned to (so that "start" may be taken, and they are told). */
  readonly assignee: number;
  /** The first create, then every this-many-th, first uploads a small text file and attaches it (none when absent). */
  readonly attachEvery?: number;
  readonly stop: () => boolean;
  /** Requests in flight, when the caller wants to see them. */
  readonly flights?: Set<Flight>;
  /** Pause after a write with no answer (the server is down): no busy loop against a closed port. */
  readonly backoffMs?: number;
}

/**
 * One client writing until told to stop: creates tickets, updates them and walks them through
 * their workflow. Each writer touches only its own tickets, with the version it last saw, so no
 * write can conflict with another writer's: any 409 is a real finding.
 */
export async function writeLoop(api: Api, ledger: Ledger, options: WriterOptions): Promise<void> {
  const mine: Ticket[] = [];
  let n = 0;
  const random = (k: number) => Math.floor(Math.random() * k);
  while (!options.stop()) {
    const pickAt = mine.length >= 3 && Math.random() < 0.6 ? random(mine.length) : -1;
    const ticket = pickAt >= 0 ? mine[pickAt] : null;
    const flight: Flight = { startedAt: performance.now(), outcome: null };
    options.flights?.add(flight);
    ledger.attempts++;
    try {
      let result: Ticket;
      if (!ticket) {
        n++;
        const text =
          options.attachEvery && (n - 1) % options.attachEvery === 0
            ? `Soak file of writer ${options.writer}, ticket ${n}, ${Math.random()}`
            : null;
        const file = text === null ? null : await api.uploadText(`writer-${options.writer}-${n}.txt`, text);
        result = await api.createTicket({
          subject: `Soak writer ${options.writer} ticket ${n}`,
          description: `Written by the soak harness (writer ${options.writer}).`,
          priority: PRIORITIES[random(PRIORITIES.length)],
          assignee: options.assignee,
          ...(file ? { attachments: [file.id] } : {}),
        });
        if (file && text !== null) ledger.files.set(result.id, { id: file.id, text });
      } else {
        result = await nextWrite(api, ticket, random);
      }
      flight.outcome = 200;
      ledger.acknowledge(result);
      if (ticket) mine.splice(pickAt, 1);
      if (result.state !== 'closed') mine.push(result);
    } catch (error) {
      // Whatever happened to this ticket is now unknown: it is not touched again by this writer.
      if (ticket) mine.splice(pickAt, 1);
      if (isNoAnswer(error)) {
        flight.outcome = error.code;
        ledger.noAnswer++;
        await new Promise((resolve) => setTimeout(resolve, options.backoffMs ?? 25));
      } else if (error instanceof Refused) {
        flight.outcome = error.answer.status;
        ledger.refused(`${error.answer.status} ${problemCode(error.answer) ?? ''}`.trim());
        if (error.answer.status >= 500) await new Promise((resolve) => setTimeout(resolve, options.backoffMs ?? 25));
      } else {
        throw error;
      }
    } finally {
      options.flights?.delete(flight);
    }
  }
}

/** A write on one's own ticket that its state allows: a transition now and then, else an update. */
function nextWrite(api: Api, ticket: Ticket, random: (k: number) => number): Promise<Ticket> {
  const roll = Math.random();
  if (ticket.state === 'new') return api.transition(ticket.id, 'start', ticket.version);
  if (ticket.state === 'open' && roll < 0.2) return api.transition(ticket.id, 'wait', ticket.version);
  if (ticket.state === 'pending' && roll < 0.4) return api.transition(ticket.id, 'reply', ticket.version);
  if ((ticket.state === 'open' || ticket.state === 'pending') && roll > 0.9) return api.transition(ticket.id, 'resolve', ticket.version);
  if (ticket.state === 'resolved') return api.transition(ticket.id, roll < 0.5 ? 'reopen' : 'close', ticket.version);
  const priority = PRIORITIES.filter((p) => p !== ticket.priority && p !== 'urgent')[random(2)];
  return api.updateTicket(ticket.id, ticket.version, {
    priority,
    subject: `${ticket.subject.replace(/ \(v\d+\)$/, '')} (v${ticket.version + 1})`,
  });
}

export interface Verification {
  /** Acknowledged tickets compared. */
  readonly checked: number;
  /** Histories read. */
  readonly histories: number;
  /** Acknowledged writes not found as acknowledged: a missing ticket, an older version, other values. */
  readonly lost: string[];
  /** Records whose history does not match their version: a write seen without its audit row, or the reverse. */
  readonly halfWritten: string[];
  /** Attached files read back (each acknowledged create's file, downloaded and compared). */
  readonly files: number;
  /** Every ticket as listed now, for the next round's "what changed". */
  readonly listed: ReadonlyMap<number, Ticket>;
}

/**
 * Reads every ticket back through the API and compares it with the ledger; reads the history of
 * every ticket that changed since `previous` (acknowledged or not: a write in flight at a crash
 * may have committed), which must hold one entry per version (created, then each change).
 */
export async function verify(api: Api, ledger: Ledger, previous: ReadonlyMap<number, Ticket> = new Map()): Promise<Verification> {
  const listed = new Map((await api.all<Ticket>('/api/v1/tickets')).map((t) => [t.id, t]));
  const lost: string[] = [];
  for (const [id, acked] of ledger.acked) {
    const now = listed.get(id);
    if (!now) lost.push(`#${id} (acknowledged at version ${acked.version}) is missing`);
    else if (now.version < acked.version) lost.push(`#${id} is at version ${now.version}, acknowledged at ${acked.version}`);
    else if (
      now.version === acked.version &&
      (now.subject !== acked.subject || now.priority !== acked.priority || now.state !== acked.state)
    ) {
      lost.push(`#${id} at version ${now.version} holds other values than acknowledged`);
    }
  }
  // An acknowledged create's file is on its ticket and downloads whole, byte for byte.
  const files = [...ledger.files];
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      for (let next = files.pop(); next; next = files.pop()) {
        const [ticketId, file] = next;
        const now = listed.get(ticketId);
        if (!now) continue;
        if (!now.attachments?.some((a) => a.id === file.id)) lost.push(`#${ticketId} lost its attachment ${file.id}`);
        else if ((await api.download(file.id)) !== file.text) lost.push(`#${ticketId}'s attachment ${file.id} reads back other bytes`);
      }
    }),
  );
  const changed = [...listed.values()].filter((t) => previous.get(t.id)?.version !== t.version);
  const halfWritten: string[] = [];
  const queue = [...changed];
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      for (let t = queue.pop(); t; t = queue.pop()) {
        const entries = await api.history(t.id);
        if (entries.length !== t.version) halfWritten.push(`#${t.id} is at version ${t.version} with ${entries.length} history entries`);
      }
    }),
  );
  return { checked: ledger.acked.size, histories: changed.length, lost, halfWritten, files: ledger.files.size, listed };
}
