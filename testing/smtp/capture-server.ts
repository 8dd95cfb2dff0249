import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/*
 * A real SMTP server in the test's process, on a random port, that keeps every message it
 * receives: the envelope (who the client said it sends to) and the raw message as sent.
 */

export interface CapturedMail {
  readonly mailFrom: string | null;
  readonly recipients: readonly string[];
  /** The user the client authenticated as, if it did. */
  readonly user: string | null;
  /** The message as received (headers and MIME body), CRLF line ends. */
  readonly raw: string;
}

export interface CaptureServer {
  /** smtp://user:secret@127.0.0.1:<port> — give it to SMTP_URL. */
  readonly url: string;
  readonly messages: CapturedMail[];
  close(): Promise<void>;
}

export async function startCaptureServer(): Promise<CaptureServer> {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    // Plain text on loopback: no certificate to make; authentication still accepted in the clear.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'user' && auth.password === 'secret') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          recipients: session.envelope.rcptTo.map((to) => to.address),
          user: typeof session.user === 'string' ? session.user : null,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://user:secret@127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
