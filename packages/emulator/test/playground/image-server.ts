import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback server of one small image: an embed's image host, with no outside network. */
export interface ImageServer {
  /** The image's address. */
  url: string;
  /** Requests the server received, whatever their path (the page must send none: images are links). */
  requests(): number;
  close(): Promise<void>;
}

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80" viewBox="0 0 240 80">
<rect width="240" height="80" rx="10" fill="#22c55e"/>
<text x="120" y="50" font-family="sans-serif" font-size="28" text-anchor="middle" fill="#fff">passing</text>
</svg>`;

/** Starts the image server on `127.0.0.1`, port 0. */
export async function startImageServer(): Promise<ImageServer> {
  let requests = 0;
  const server: Server = createServer((request, response) => {
    requests++;
    if (request.url !== '/badge.svg') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(SVG);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/badge.svg`,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
