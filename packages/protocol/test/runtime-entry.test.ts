import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as root from '../src/index.js';
import * as runtime from '../src/runtime/index.js';
import { command, message } from './samples.js';

const { id: _id, updated_at: _at, ...definition } = command;

const src = fileURLToPath(new URL('../src/', import.meta.url));

/** Every module the runtime entry loads (value imports and re-exports; type-only ones are erased). */
function loadedBy(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'([^']+)'/gms)) {
    const spec = m[1] as string;
    if (spec.startsWith('.')) loadedBy(resolve(dirname(file), spec.replace(/\.js$/, '.ts')), seen);
    else seen.add(spec);
  }
  return seen;
}

const SCHEMAS = {
  SendMessageBody: root.SendMessageBody,
  EditMessageBody: root.EditMessageBody,
  InteractionResponseBody: root.InteractionResponseBody,
  ReplaceCommandsBody: root.ReplaceCommandsBody,
};

describe('@boardbot/protocol/runtime', () => {
  it('loads neither TypeBox nor the schemas as it loads', () => {
    const loaded = [...loadedBy(`${src}runtime/index.ts`)];
    expect(loaded.filter((m) => m.includes('typebox') || m.includes('/schemas/'))).toEqual([]);
  });

  it('exports only names the root entry exports too, with the same values', () => {
    const rootExports: Record<string, unknown> = { ...root };
    for (const [name, value] of Object.entries(runtime)) expect(rootExports[name]).toBe(value);
  });

  it('checks bodies and events as the schemas do, and lists the same problems', () => {
    const cases: Array<[keyof typeof runtime.BODY_CHECKERS, unknown]> = [
      ['SendMessageBody', { content: 'hi' }],
      ['SendMessageBody', { content: 5, embeds: [{ color: 'red' }] }],
      ['EditMessageBody', { content: 'x'.repeat(5000) }],
      ['InteractionResponseBody', { type: 'nope' }],
      ['ReplaceCommandsBody', [definition]],
      ['ReplaceCommandsBody', [{ ...definition, name: 'Bad Name', options: [{ type: 'float' }] }]],
    ];
    expect(cases.map(([name, value]) => runtime.BODY_CHECKERS[name].is(value))).toEqual([
      true,
      false,
      false,
      false,
      true,
      false,
    ]);
    for (const [name, value] of cases) {
      expect(runtime.BODY_CHECKERS[name].check(value)).toEqual(root.checkerFor(SCHEMAS[name]).check(value));
    }
    const event = runtime.GATEWAY_EVENT_CHECKERS['message.create'];
    expect(event.is({ type: 'message.create', message })).toBe(true);
    expect(event.check({ type: 'message.create', message: { ...message, seq: '1' } })).toMatchObject({
      ok: false,
      issues: [{ path: '/message/seq' }],
    });
  });
});
