import { connect } from 'node:net';

// One HTTP exchange over a raw socket, so a test can send any bytes (two Host headers, NUL in the
// path, CONNECT, a lying Content-Length) and read exactly what the server answered.

export interface RawResponse {
  status: number;
  /** Lower-case names; a repeated header keeps its last value. */
  headers: Record<string, string>;
  /** Every header name, lower-case, as often as it was sent. */
  headerNames: string[];
  body: string;
}

export interface ExchangeOptions {
  /** Half-close after writing: the server sees the end of the request bytes (a body shorter than its Content-Length). */
  end?: boolean;
  /** No answer by then resolves 'timeout' instead of waiting for the test's own timeout. */
  timeoutMs?: number;
}

/**
 * Sends `request` and reads until the server closes the connection (send `Connection: close`).
 * Null: the server closed without a complete answer; 'timeout': it kept the connection open.
 */
export function exchange(port: number, request: Buffer, options: ExchangeOptions = {}): Promise<RawResponse | null | 'timeout'> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let timedOut = false;
    if (options.timeoutMs) {
      socket.setTimeout(options.timeoutMs, () => {
        timedOut = true;
        socket.destroy();
      });
    }
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' || err.code === 'EPIPE' ? undefined : reject(err)));
    socket.on('close', () => resolve(timedOut ? 'timeout' : parseRawResponse(Buffer.concat(chunks))));
    socket.write(request);
    if (options.end) socket.end();
  });
}

/** The last complete answer in `buf`, after any interim 1xx (Expect: 100-continue); chunked bodies joined. */
export function parseRawResponse(buf: Buffer): RawResponse | null {
  // latin1: one character per byte, so indices found in the text are byte offsets.
  let text = buf.toString('latin1');
  let at = 0;
  while (/^HTTP\/1\.1 1\d\d /.test(text.slice(at)) && text.includes('\r\n\r\n', at)) at = text.indexOf('\r\n\r\n', at) + 4;
  text = text.slice(at);
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1]);
  const headers: Record<string, string> = {};
  const headerNames: string[] = [];
  for (const l of lines) {
    const i = l.indexOf(':');
    const name = l.slice(0, i).toLowerCase();
    headers[name] = Buffer.from(l.slice(i + 1).trim(), 'latin1').toString('utf8');
    headerNames.push(name);
  }
  let body = buf.subarray(at + end + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    const parts: Buffer[] = [];
    let rest = body;
    for (;;) {
      const nl = rest.indexOf('\r\n');
      const size = parseInt(rest.subarray(0, nl).toString('latin1'), 16);
      if (!size) break;
      parts.push(rest.subarray(nl + 2, nl + 2 + size));
      rest = rest.subarray(nl + 2 + size + 2);
    }
    body = Buffer.concat(parts);
  }
  return { status, headers, headerNames, body: body.toString('utf8') };
}
