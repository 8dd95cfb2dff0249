import { once } from 'node:events';
import { connect } from 'node:net';

/**
 * A client that declares a body, reads the server's answer before sending any of it, then sends
 * the body in full anyway and asks again on the same connection, as a client that had not seen
 * the answer yet would. Resolves with the status line of each answer; rejects when the server
 * closed or reset the connection under it (write EPIPE), which a door that answered early must
 * not do: it reads the rest and throws it away.
 */
export async function sendBodyAfterAnswer(baseUrl: string, first: string, bodyBytes: number, second: string): Promise<string[]> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const failed = new Promise<never>((_, reject) => {
    socket.once('error', reject);
    socket.once('close', () => reject(new Error('the server closed the connection')));
  });
  failed.catch(() => undefined);
  const answers = () =>
    Buffer.concat(received)
      .toString('latin1')
      .split(/(?=HTTP\/1\.1 \d{3} )/)
      .filter((part) => part.startsWith('HTTP/1.1 '));
  const upTo = async (count: number) => {
    while (answers().length < count) await Promise.race([once(socket, 'data'), failed]);
  };
  try {
    await Promise.race([once(socket, 'connect'), failed]);
    socket.write(`${first.replace(/\r\n$/, '')}\r\nHost: ${hostname}:${port}\r\nContent-Length: ${bodyBytes}\r\n\r\n`);
    await upTo(1);
    const chunk = Buffer.alloc(64 * 1024, 'x');
    for (let sent = 0; sent < bodyBytes; sent += chunk.length) {
      if (!socket.write(chunk.subarray(0, Math.min(chunk.length, bodyBytes - sent)))) await Promise.race([once(socket, 'drain'), failed]);
    }
    socket.write(`${second.replace(/\r\n$/, '')}\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`);
    await upTo(2);
    return answers().map((answer) => answer.split('\r\n')[0]!);
  } finally {
    socket.destroy();
  }
}
