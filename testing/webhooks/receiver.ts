import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A webhook receiver on a random local port, for tests: it keeps every request, and answers as
 * the test says (a status, or no answer at all, to try timeouts).
 */

export interface ReceivedPost {
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** What the receiver does with the next request: answer with a status, or hang (never answer). */
export type ReceiverAnswer = number | 'hang';

export interface Receiver {
  readonly url: string;
  readonly received: ReceivedPost[];
  /** Answers for the next requests, in order; after them, 200. */
  answer(...answers: ReceiverAnswer[]): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedPost[] = [];
  const queue: ReceiverAnswer[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = queue.shift() ?? 200;
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(answer, { 'content-type': 'text/plain' });
      response.end(answer < 300 ? 'thanks' : `no: ${answer}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer: (...answers) => void queue.push(...answers),
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
