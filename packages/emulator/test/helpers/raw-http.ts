import { connect, type Socket } from 'node:net';

/** An HTTP answer read off a raw socket. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are read freely
  json: any;
}

/** Parses the first HTTP/1.1 answer in `text` (a body framed by Content-Length, or up to the end). */
export function parseAnswer(text: string): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  const rest = end === -1 ? '' : text.slice(end + 4);
  const length = headers['content-length'];
  const body = length === undefined ? rest : Buffer.from(rest).subarray(0, Number(length)).toString();
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body, json };
}

/** Opens a TCP connection to a local port. */
export function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends on `socket` until it closes the connection (errors end it too). */
export function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(text));
  });
}

/** Resolves with the first complete answer the server sends on `socket` (whether or not it closes). */
export function nextAnswer(socket: Socket): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1];
      if (length !== undefined && Buffer.byteLength(text.slice(end + 4)) < Number(length)) return;
      socket.off('data', onData);
      resolve(parseAnswer(text));
    };
    socket.on('data', onData);
    socket.once('close', () => (text ? resolve(parseAnswer(text)) : reject(new Error('closed without an answer'))));
  });
}

/**
 * Sends `text` as is on a new connection and reads the server's first answer, then drops the
 * connection. The client never half-closes: Node's server aborts a request whose client did.
 */
export async function rawExchange(port: number, text: string | Buffer): Promise<RawAnswer> {
  const socket = await open(port);
  const answer = nextAnswer(socket);
  socket.write(text);
  try {
    return await answer;
  } finally {
    socket.destroy();
  }
}
