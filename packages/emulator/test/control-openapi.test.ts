import { readFileSync } from 'node:fs';
import { buildControlOpenApiDocument, createEmulator, type Emulator } from '@boardbot/emulator';
import { ACTIVITY_EVENTS } from '@boardbot/emulator/control';
import { buildOpenApiDocument, CONTROL_PREFIX, ERROR_STATUS, type ErrorCode, silentLogger } from '@boardbot/protocol';
import { openApi31Problems } from '@boardbot/test-support';
import Fastify, { type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderOpenApiYaml } from '../../../scripts/openapi-yaml.mjs';
import { CONTROL_OPERATIONS } from '../src/control/openapi/operations.js';
import { resolveOptions } from '../src/options.js';
import { controlRoutes } from '../src/routes/control/index.js';

// The control API's OpenAPI document (docs/control-api.openapi.yaml) is built from the schemas its
// routes validate with. These tests tie the three together: the document is valid and committed,
// and every route of the control API is an operation of the document with the very same schemas.

const doc = buildControlOpenApiDocument();
type Op = {
  operationId: string;
  security: Record<string, unknown[]>[];
  responses: Record<string, { content?: Record<string, { schema: { allOf?: unknown[] } }> }>;
  'x-activity-events'?: Record<string, unknown>;
};
const ops = Object.values(doc.paths).flatMap((byMethod) => Object.entries(byMethod) as [string, Op][]);

let emu: Emulator;
beforeAll(async () => {
  emu = await createEmulator({ db: ':memory:', logger: false });
});
afterAll(() => emu.close());

/** The control routes as registered, with the schemas Fastify validates them with. */
async function registeredControlRoutes(): Promise<RouteOptions[]> {
  const app = Fastify();
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    if (route.method !== 'HEAD') routes.push(route);
  });
  controlRoutes(app, emu.platform, {
    platform: emu.platform,
    options: resolveOptions(),
    adminKey: emu.adminKey,
    devToken: emu.devToken,
    logger: silentLogger,
    isClosing: () => false,
    urls: () => undefined,
    allowedHosts: () => undefined,
  });
  await app.ready();
  await app.close();
  return routes;
}

describe('the control API OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(await openApi31Problems(doc)).toEqual([]);
  });

  it('matches the committed docs/control-api.openapi.yaml (run `npm run openapi` when this fails)', () => {
    const committed = readFileSync(new URL('../../../docs/control-api.openapi.yaml', import.meta.url), 'utf8');
    expect(committed).toBe(renderOpenApiYaml(doc, '@boardbot/emulator'));
  });

  it('says it is not part of the app API, and shares no path with the app API document', () => {
    expect((doc.info as { description: string }).description).toContain("not part of the platform's app API");
    expect((doc.servers as { url: string }[])[0]?.url).toMatch(new RegExp(`${CONTROL_PREFIX}$`));
    const appPaths = Object.keys(buildOpenApiDocument().paths);
    const shared = Object.keys(doc.paths).filter((p) => appPaths.includes(p));
    // Same templates, other servers: the control API's are under /_emulator/v1, the app API's under /api/v1.
    expect(shared.sort()).toEqual([
      '/boards',
      '/boards/{boardId}/members',
      '/boards/{boardId}/messages',
      '/boards/{boardId}/messages/{messageId}',
    ]);
  });

  it('documents every control route, with the schemas the route validates with', async () => {
    // The catch-alls only refuse (401 without the key, else 404): they are no operations.
    const routes = (await registeredControlRoutes()).filter((r) => r.url !== CONTROL_PREFIX && !r.url.endsWith('/*'));
    const described = routes.map((r) => {
      const path = r.url.slice(CONTROL_PREFIX.length).replace(/:(\w+)/g, '{$1}');
      const op = CONTROL_OPERATIONS.find((o) => o.path === path && o.method === String(r.method).toLowerCase());
      const schema = r.schema ?? {};
      return {
        route: `${r.method} ${path}`,
        documented: op !== undefined,
        // Identity, not likeness: the document is built from the very schema objects of the routes.
        // An optional body cannot be a Fastify body schema; its handler checks it (`optionalBody`).
        sameBody: op?.bodyOptional ? schema.body === undefined : schema.body === op?.body,
        sameParams: schema.params === op?.params,
        sameQuery: schema.querystring === op?.query,
      };
    });
    for (const d of described) {
      expect(d).toEqual({ route: d.route, documented: true, sameBody: true, sameParams: true, sameQuery: true });
    }
    const routed = described.map((d) => d.route).sort();
    expect(CONTROL_OPERATIONS.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort()).toEqual(routed);
  });

  it('asks for the admin key on every operation, as a header, or as ?key= on GET', () => {
    for (const [method, op] of ops) {
      const expected = method === 'get' ? [{ adminKey: [] }, { adminKeyQuery: [] }] : [{ adminKey: [] }];
      expect({ op: op.operationId, security: op.security }).toEqual({ op: op.operationId, security: expected });
      expect(Object.keys(op.responses)).toContain('401');
    }
  });

  it("gives each error status the envelope with that status's codes", () => {
    for (const [, op] of ops) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const schema = response.content?.['application/json']?.schema;
        expect(schema?.allOf?.[0]).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
        const codes = (schema?.allOf?.[1] as { properties: { error: { properties: { code: { enum: string[] } } } } })
          .properties.error.properties.code.enum;
        for (const code of codes)
          expect(ERROR_STATUS[code as ErrorCode], `${op.operationId} ${code}`).toBe(Number(status));
      }
    }
  });

  it('lists the schema of every activity stream event', () => {
    const stream = ops.find(([, op]) => op.operationId === 'openActivityStream')?.[1];
    expect(Object.keys(stream?.['x-activity-events'] ?? {})).toEqual([...ACTIVITY_EVENTS]);
    const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
    for (const target of Object.values(stream?.['x-activity-events'] ?? {})) {
      expect(Object.keys(schemas)).toContain((target as { $ref: string }).$ref.split('/').pop());
    }
  });
});
