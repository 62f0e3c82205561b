import { addFlags, onePerPress } from '@boardbot/cli/internal';
import { describe, expect, it } from 'vitest';

describe('addFlags: a fix that can be copied as it is', () => {
  it('puts the flags after `--` of the npm script that ran the CLI', () => {
    expect(addFlags('--port 0', { npm_lifecycle_event: 'dev', npm_command: 'run' })).toBe(
      'run `npm run dev -- --port 0`',
    );
    expect(addFlags('--port 0', { npm_lifecycle_event: 'start', npm_command: 'start' })).toBe(
      'run `npm run start -- --port 0`',
    );
    expect(addFlags('--port 0', { npm_lifecycle_event: 'my dev', npm_command: 'run' })).toBe(
      'run `npm run "my dev" -- --port 0`',
    );
  });

  it('says to add the flags when the CLI was run directly or through npx', () => {
    expect(addFlags('--port 0', {})).toBe('add `--port 0`');
    expect(addFlags('--port 0', { npm_lifecycle_event: 'npx', npm_command: 'exec' })).toBe('add `--port 0`');
  });
});

describe('onePerPress: one Ctrl-C reaches the handler once', () => {
  it('drops one copy of a signal that comes again at once (npm passing it on), and lets a later one through', () => {
    let now = 0;
    const seen: string[] = [];
    const handle = onePerPress(
      (signal) => seen.push(`${signal}@${now}`),
      () => now,
    );
    handle('SIGINT');
    now = 3;
    handle('SIGINT'); // npm's copy of the same press
    expect(seen).toEqual(['SIGINT@0']);
    now = 1500;
    handle('SIGINT'); // the person's second press
    expect(seen).toEqual(['SIGINT@0', 'SIGINT@1500']);
  });

  it('drops only one copy: a third signal at once gets through, and another signal is never a copy', () => {
    let now = 0;
    const seen: string[] = [];
    const handle = onePerPress(
      (signal) => seen.push(signal),
      () => now,
    );
    handle('SIGINT');
    handle('SIGINT');
    handle('SIGINT');
    expect(seen).toEqual(['SIGINT', 'SIGINT']);
    now = 5000;
    handle('SIGTERM');
    handle('SIGINT');
    expect(seen).toEqual(['SIGINT', 'SIGINT', 'SIGTERM', 'SIGINT']);
  });
});
