import { request } from 'node:http';

/** Requests as a client may send them, which fetch() would not: any method, a target left as written. */

export interface RawRequest {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: Buffer;
  /** Sent in pieces without a Content-Length. */
  readonly chunked?: boolean;
}

export interface RawAnswer {
  readonly status: number | null;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * One request sent as a client may send it (any method, any target, a body with or without
 * Content-Length). A server that answers before reading the whole body closes the connection:
 * the answer still counts when it came before the close.
 */
export function sendRaw(baseUrl: string, target: string, options: RawRequest = {}): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    let answered = false;
    const sent = request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'GET',
        path: target,
        headers: { ...(options.body && !options.chunked ? { 'content-length': String(options.body.length) } : {}), ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        const done = () => {
          answered = true;
          resolve({ status: response.statusCode ?? null, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') });
        };
        response.on('end', done);
        response.on('error', done);
      },
    );
    // A CONNECT's answer comes as a tunnel's, whatever its status.
    sent.on('connect', (response, socket) => {
      answered = true;
      socket.destroy();
      resolve({ status: response.statusCode ?? null, headers: response.headers, body: '' });
    });
    sent.on('error', () => {
      if (!answered) setTimeout(() => !answered && resolve({ status: null, headers: {}, body: '' }), 200);
    });
    if (options.body && options.chunked) {
      // In pieces, without a Content-Length: the limit holds while the body streams.
      const piece = 256 * 1024;
      let at = 0;
      const more = () => {
        while (at < options.body!.length) {
          const ok = sent.write(options.body!.subarray(at, (at += piece)));
          if (!ok) return void sent.once('drain', more);
        }
        sent.end();
      };
      more();
    } else sent.end(options.body);
  });
}
