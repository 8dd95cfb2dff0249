import { randomBytes } from 'node:crypto';
import { call, NoAnswer, type Answer, type Call } from './http';

/** Where the server under test answers: a restart on the same port keeps the object valid. */
export interface Target {
  url: string;
}

export interface Ticket {
  readonly id: number;
  readonly version: number;
  readonly subject: string;
  readonly priority: string;
  readonly state: string;
  readonly assignee: number | null;
  readonly attachments?: readonly UploadedFile[];
}

/** A file as the API describes it. */
export interface UploadedFile {
  readonly id: number;
  readonly name: string;
  readonly size: number;
}

/** A notification of the caller's inbox. */
export interface Notice {
  readonly id: number;
  readonly kind: string;
  readonly recordId: number;
}

export interface HistoryEntry {
  readonly id: number;
  readonly action: string;
}

/** A refused or failed request, with what the server said. */
export class Refused extends Error {
  constructor(
    readonly what: string,
    readonly answer: Answer,
  ) {
    super(`${what} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  }
}

/** The REST API as the soak's clients use it, with a personal API token. */
export class Api {
  constructor(
    readonly target: Target,
    readonly token: string,
  ) {}

  private send(path: string, options: Call = {}): Promise<Answer> {
    return call(`${this.target.url}${path}`, { ...options, headers: { authorization: `Bearer ${this.token}`, ...options.headers } });
  }

  /** Any request, answered as it comes (for load loops that count statuses). */
  raw(path: string, options: Call = {}): Promise<Answer> {
    return this.send(path, options);
  }

  private async expect<T>(what: string, answer: Promise<Answer>, status: number): Promise<T> {
    const got = await answer;
    if (got.status !== status) throw new Refused(what, got);
    return JSON.parse(got.body) as T;
  }

  me(): Promise<{ id: number; email: string }> {
    return this.expect('GET /auth/me', this.send('/api/v1/auth/me'), 200);
  }

  createTicket(fields: Record<string, unknown>): Promise<Ticket> {
    return this.expect('POST /tickets', this.send('/api/v1/tickets', { method: 'POST', json: fields }), 201);
  }

  updateTicket(id: number, version: number, fields: Record<string, unknown>): Promise<Ticket> {
    return this.expect(
      `PATCH /tickets/${id}`,
      this.send(`/api/v1/tickets/${id}`, { method: 'PATCH', json: fields, headers: { 'if-match': `"${version}"` } }),
      200,
    );
  }

  transition(id: number, name: string, version: number): Promise<Ticket> {
    return this.expect(
      `POST /tickets/${id}/transitions/${name}`,
      this.send(`/api/v1/tickets/${id}/transitions/${name}`, { method: 'POST', json: { version } }),
      200,
    );
  }

  /** Uploads a text file (multipart, as a browser sends it): staged for the next write that names its id. */
  async uploadText(name: string, text: string): Promise<UploadedFile> {
    const boundary = `soak${randomBytes(8).toString('hex')}`;
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n${text}\r\n--${boundary}--\r\n`,
    );
    const answer = await this.expect<{ items: UploadedFile[] }>(
      'POST /files',
      this.send('/api/v1/files', { method: 'POST', bytes: { body, contentType: `multipart/form-data; boundary=${boundary}` } }),
      201,
    );
    return answer.items[0]!;
  }

  /** A file's bytes as text, or null when the API says 404. */
  async download(id: number): Promise<string | null> {
    const answer = await this.send(`/api/v1/files/${id}`);
    if (answer.status === 404) return null;
    if (answer.status !== 200) throw new Refused(`GET /files/${id}`, answer);
    return answer.body;
  }

  /** The ticket, or null when the API says 404. */
  async getTicket(id: number): Promise<Ticket | null> {
    const answer = await this.send(`/api/v1/tickets/${id}`);
    if (answer.status === 404) return null;
    if (answer.status !== 200) throw new Refused(`GET /tickets/${id}`, answer);
    return JSON.parse(answer.body) as Ticket;
  }

  /** Every history entry of a ticket, page after page. */
  async history(id: number): Promise<HistoryEntry[]> {
    return this.all<HistoryEntry>(`/api/v1/tickets/${id}/history`);
  }

  /** Every item of a list, page after page (keyset cursors). */
  async all<T>(path: string): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | null = null;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const page: { items: T[]; nextCursor: string | null } = await this.expect(
        `GET ${path}`,
        this.send(`${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
        200,
      );
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return items;
  }
}

export function isNoAnswer(error: unknown): error is NoAnswer {
  return error instanceof NoAnswer;
}
