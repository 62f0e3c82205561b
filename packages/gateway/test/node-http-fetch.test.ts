import { nodeHttpFetch } from '@boardbot/gateway';
import { openStream, readyFrame } from '@boardbot/test-support';
import { expect, it } from 'vitest';
import { server } from './support/helpers.js';

// The default fetch is tested through the client everywhere else; these pin what only it decides.

it('speaks TLS to an https URL (a plain-HTTP server answers it with a TLS failure)', async () => {
  const s = await server((_req, res) => openStream(res));
  const url = `${s.baseUrl.replace('http:', 'https:')}/gateway`;
  const signal = new AbortController().signal;
  await expect(nodeHttpFetch(url, { method: 'GET', headers: {}, signal })).rejects.toMatchObject({ code: 'EPROTO' });
});

it('reads the body, answers header names in any case, and ends the read after the server ends', async () => {
  const s = await server((_req, res) => {
    openStream(res);
    res.end(readyFrame(1));
  });
  const signal = new AbortController().signal;
  const response = await nodeHttpFetch(`${s.baseUrl}/gateway`, { method: 'GET', headers: {}, signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('Content-Type')).toMatch(/^text\/event-stream/);
  expect(response.headers.get('x-absent')).toBeNull();
  const reader = response.body?.getReader();
  let text = '';
  for (let r = await reader?.read(); r && !r.done; r = await reader?.read()) text += Buffer.from(r.value).toString();
  expect(text.endsWith(readyFrame(1))).toBe(true);
});
