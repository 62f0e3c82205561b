import { readFileSync } from 'node:fs';
import { buildOpenApiDocument, ENDPOINTS, ERROR_CODES, ERROR_STATUS, type ErrorCode } from '@boardbot/protocol';
import { openApi31Problems } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { renderOpenApiYaml } from '../../../scripts/openapi-yaml.mjs';

const doc = buildOpenApiDocument();
type Op = {
  security: unknown[];
  parameters: { name: string; in: string }[];
  responses: Record<
    string,
    {
      headers?: Record<string, unknown>;
      content?: Record<
        string,
        { schema: { allOf?: { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } }[] } }
      >;
    }
  >;
};
const op = (path: string, method: string) => (doc.paths[path] as Record<string, Op>)[method] as Op;

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(await openApi31Problems(doc)).toEqual([]);
  });

  it('matches the committed docs/openapi.yaml (run `npm run openapi` when this fails)', () => {
    const committed = readFileSync(new URL('../../../docs/openapi.yaml', import.meta.url), 'utf8');
    expect(committed).toBe(renderOpenApiYaml(doc));
  });

  it('lists all 13 endpoints of the contract', () => {
    const listed = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(listed.sort()).toEqual(
      [
        'GET /boards',
        'GET /boards/{boardId}',
        'GET /boards/{boardId}/members',
        'GET /boards/{boardId}/messages',
        'POST /boards/{boardId}/messages',
        'PATCH /boards/{boardId}/messages/{messageId}',
        'DELETE /boards/{boardId}/messages/{messageId}',
        'GET /users/{userId}',
        'GET /app',
        'GET /app/commands',
        'PUT /app/commands',
        'POST /interactions/{token}',
        'GET /gateway',
      ].sort(),
    );
  });

  it('requires the bearer token on every endpoint but POST /interactions/{token}', () => {
    for (const e of ENDPOINTS) {
      const security = op(e.path, e.method).security;
      expect(security, `${e.n}`).toEqual(e.n === 12 ? [] : [{ bearerAuth: [] }]);
    }
  });

  it('puts the three rate-limit headers on every response, Retry-After on 429, WWW-Authenticate on 401', () => {
    for (const e of ENDPOINTS) {
      for (const [status, res] of Object.entries(op(e.path, e.method).responses)) {
        const headers = Object.keys(res.headers ?? {});
        expect(headers, `${e.n} ${status}`).toEqual(
          expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
        );
        if (status === '429') expect(headers).toContain('Retry-After');
        if (status === '401') expect(headers).toContain('WWW-Authenticate');
      }
    }
  });

  it('gives every endpoint its success status and the error statuses the contract names', () => {
    // Every endpoint also answers the HTTP layer's refusals: 400 bad_request, 408 and 431.
    const expected: Record<number, number[]> = {
      1: [200, 400, 401, 408, 429, 431, 500, 503],
      2: [200, 400, 401, 404, 408, 429, 431, 500, 503],
      3: [200, 400, 401, 404, 408, 429, 431, 500, 503],
      4: [200, 400, 401, 404, 408, 429, 431, 500, 503],
      5: [200, 400, 401, 404, 408, 409, 413, 415, 422, 429, 431, 500, 503],
      6: [200, 400, 401, 403, 404, 408, 409, 413, 415, 422, 429, 431, 500, 503],
      7: [204, 400, 401, 403, 404, 408, 429, 431, 500, 503],
      8: [200, 400, 401, 404, 408, 429, 431, 500, 503],
      9: [200, 400, 401, 408, 429, 431, 500, 503],
      10: [200, 400, 401, 408, 429, 431, 500, 503],
      11: [200, 400, 401, 408, 413, 415, 429, 431, 500, 503],
      12: [200, 400, 404, 408, 409, 410, 413, 415, 422, 429, 431, 500, 503],
      13: [200, 400, 401, 408, 429, 431, 500, 503],
    };
    for (const e of ENDPOINTS) {
      expect(Object.keys(op(e.path, e.method).responses).map(Number), `endpoint ${e.n}`).toEqual(expected[e.n]);
    }
  });

  it('uses the error envelope with the contract codes of each status', () => {
    const used = new Set<string>();
    for (const e of ENDPOINTS) {
      for (const [status, res] of Object.entries(op(e.path, e.method).responses)) {
        if (Number(status) < 400) continue;
        const schema = res.content?.['application/json']?.schema;
        expect(schema?.allOf?.[0]).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
        const codes = schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum ?? [];
        for (const c of codes) {
          expect(ERROR_STATUS[c as ErrorCode], c).toBe(Number(status));
          used.add(c);
        }
      }
    }
    // Route-level codes (no route, wrong method) cannot be tied to a documented path.
    expect(ERROR_CODES.filter((c) => !used.has(c))).toEqual(['not_found', 'method_not_allowed']);
  });

  it('offers Idempotency-Key on the two POSTs, the PATCH, and paging parameters on the list', () => {
    expect(op('/boards/{boardId}/messages', 'post').parameters.map((p) => p.name)).toContain('Idempotency-Key');
    expect(op('/boards/{boardId}/messages/{messageId}', 'patch').parameters.map((p) => p.name)).toContain(
      'Idempotency-Key',
    );
    expect(op('/interactions/{token}', 'post').parameters.map((p) => p.name)).toContain('Idempotency-Key');
    expect(op('/boards/{boardId}/messages', 'get').parameters.map((p) => p.name)).toEqual([
      'boardId',
      'before',
      'limit',
    ]);
  });

  it('describes the gateway stream as text/event-stream with its event schemas', () => {
    const gw = op('/gateway', 'get') as Op & { 'x-gateway-events': Record<string, unknown> };
    expect(Object.keys(gw.responses['200']?.content ?? {})).toEqual(['text/event-stream']);
    expect(Object.keys(gw['x-gateway-events'])).toEqual([
      'ready',
      'message.create',
      'message.edit',
      'message.delete',
      'interaction.create',
    ]);
  });
});
