import type { AppInfo } from '@boardbot/emulator/control';
import type { LeafOption } from '@boardbot/protocol';
import { ALICE, APP, at, BOARD, BOT, command, message, uuid } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { commandsOnBoard, matchCommands, matchTextCommands } from '../playground/src/commands/available.js';
import {
  boundsHint,
  checkOptions,
  leafOptionsOf,
  placeServerErrors,
  SUBCOMMAND_FIELD,
} from '../playground/src/commands/check-options.js';
import {
  authorOf,
  describeOptions,
  formatBytes,
  isHttpUrl,
  mediaName,
  namerOf,
  snippet,
} from '../playground/src/format.js';
import { inlineSpans } from '../playground/src/inline-format.js';
import { EMPTY_STATE, playgroundReducer } from '../playground/src/state/playground-state.js';
import { buildTimeline, nextExpiry } from '../playground/src/state/timeline.js';
import { interaction } from './playground/records.js';

// The playground's pure logic: the option checks of the command form, the merge of answers and
// live events, and the order of the message list. The browser tests drive the same code end to end.

const sides = {
  name: 'sides',
  description: 'Sides',
  type: 'integer',
  required: true,
  min_value: 2,
  max_value: 1000,
} as const;

describe('the command form checks options before sending', () => {
  it('converts typed text to the option types', () => {
    const result = checkOptions(
      [
        sides,
        { name: 'ratio', description: 'r', type: 'number' },
        { name: 'loud', description: 'l', type: 'boolean' },
        { name: 'note', description: 'n', type: 'string' },
      ],
      { sides: ' 20 ', ratio: '0.5', loud: 'true', note: ' hi ' },
    );
    expect(result).toEqual({ values: { sides: 20, ratio: 0.5, loud: true, note: ' hi ' }, errors: {} });
  });

  it('names each bad field: bounds, integers, required', () => {
    expect(checkOptions([sides], { sides: '1' }).errors).toEqual({ sides: 'Must be 2 to 1000.' });
    expect(checkOptions([sides], { sides: '1001' }).errors).toEqual({ sides: 'Must be 2 to 1000.' });
    expect(checkOptions([sides], { sides: '2.5' }).errors).toEqual({ sides: 'Enter a whole number.' });
    expect(checkOptions([sides], { sides: 'ten' }).errors).toEqual({ sides: 'Enter a whole number.' });
    expect(checkOptions([sides], { sides: '99999999999999999999' }).errors).toEqual({
      sides: 'This number is too large.',
    });
    expect(checkOptions([sides], {}).errors).toEqual({ sides: 'Required.' });
    const { min_value: _, ...noMinimum } = sides;
    expect(checkOptions([noMinimum], { sides: '5000' }).errors).toEqual({
      sides: 'Must be at most 1000.',
    });
  });

  it('leaves empty optional options out and checks string lengths and numbers', () => {
    const name = { name: 'name', description: 'n', type: 'string', min_length: 2, max_length: 4 } as const;
    expect(checkOptions([name], { name: '' })).toEqual({ values: {}, errors: {} });
    expect(checkOptions([name], { name: 'a' }).errors).toEqual({ name: 'Enter at least 2 characters.' });
    expect(checkOptions([name], { name: 'abcde' }).errors).toEqual({ name: 'Enter at most 4 characters.' });
    expect(checkOptions([{ name: 'x', description: 'x', type: 'number' }], { x: '1e999' }).errors).toEqual({
      x: 'Enter a number.',
    });
  });

  it('accepts only the listed choices, keeping the choice value type', () => {
    const mode: LeafOption = {
      name: 'mode',
      description: 'm',
      type: 'integer',
      choices: [
        { name: 'Low', value: 1 },
        { name: 'High', value: 9 },
      ],
    };
    expect(checkOptions([mode], { mode: '9' })).toEqual({ values: { mode: 9 }, errors: {} });
    expect(checkOptions([mode], { mode: '5' }).errors).toEqual({ mode: 'Choose one of the listed values.' });
  });

  it('uses the options of the chosen subcommand', () => {
    const c = command('dice', [
      { name: 'one', description: 'One die', type: 'subcommand', options: [sides] },
      { name: 'many', description: 'Many dice', type: 'subcommand', options: [{ ...sides, name: 'count' }] },
    ]);
    expect(leafOptionsOf(c, 'many').map((o) => o.name)).toEqual(['count']);
    expect(leafOptionsOf(c, 'nope')).toEqual([]);
    expect(leafOptionsOf(command('roll', [sides]), undefined)).toEqual([sides]);
  });

  it('describes bounds for the hint beside the field', () => {
    expect(boundsHint(sides)).toBe('2 to 1000');
    expect(boundsHint({ name: 's', description: 's', type: 'string', max_length: 20 })).toBe('up to 20 characters');
    expect(boundsHint({ name: 'b', description: 'b', type: 'boolean' })).toBeUndefined();
  });

  it('places the emulator validation errors beside their fields', () => {
    const placed = placeServerErrors(
      [
        { path: '/options/sides', message: 'Expected at most 6' },
        { path: '/subcommand', message: 'Unknown subcommand' },
        { path: '/options/extra', message: 'Unknown option' },
        { path: '/user_id', message: 'Not a member of the board' },
      ],
      ['sides'],
    );
    expect(placed.fields).toEqual({ sides: 'Expected at most 6', [SUBCOMMAND_FIELD]: 'Unknown subcommand' });
    expect(placed.form).toEqual(['/options/extra: Unknown option', '/user_id: Not a member of the board']);
  });
});

describe('the command picker', () => {
  const app = (id: number, name: string, boards: string[], names: string[]): AppInfo => ({
    id: uuid(id),
    name,
    description: null,
    bot_user_id: uuid(id + 50),
    created_at: at(0),
    board_ids: boards,
    commands: names.map((n) => command(n, [])),
    token_strength: 'strong',
  });

  it('lists the commands of the apps installed on the board, by name', () => {
    const apps = [app(1, 'dev-bot', [BOARD], ['roll', 'ping']), app(2, 'other', [uuid(999)], ['secret'])];
    const found = commandsOnBoard(apps, BOARD);
    expect(found.map((c) => c.command.name)).toEqual(['ping', 'roll']);
    expect(matchCommands(found, '/r')?.map((c) => c.command.name)).toEqual(['roll']);
    expect(matchCommands(found, '/')).toHaveLength(2);
    expect(matchCommands(found, 'hello')).toBeUndefined();
    expect(matchCommands(found, '/roll 20')).toBeUndefined();
  });

  it('lists them as text commands after !, each subcommand on its own, until the arguments begin', () => {
    const note = command('note', [
      {
        name: 'add',
        description: 'Add a note',
        type: 'subcommand',
        options: [{ name: 'text', description: 't', type: 'string', required: true }],
      },
      { name: 'list', description: 'List', type: 'subcommand' },
    ]);
    const roll = command('roll', [{ name: 'sides', description: 's', type: 'integer' }]);
    const found = commandsOnBoard([{ ...app(1, 'dev-bot', [BOARD], []), commands: [note, roll] }], BOARD);
    const shown = (text: string) => matchTextCommands(found, text)?.map((s) => `${s.typed} ${s.usage}`.trim());
    expect(shown('!')).toEqual(['note add <text>', 'note list', 'roll [sides]']);
    expect(shown('!no')).toEqual(['note add <text>', 'note list']);
    expect(shown('!note a')).toEqual(['note add <text>']);
    expect(shown('!roll 20')).toBeUndefined();
    expect(shown('!note add milk')).toBeUndefined();
    expect(shown('!zz')).toEqual([]);
    expect(shown('hello !roll')).toBeUndefined();
    expect(shown('/roll')).toBeUndefined();
  });
});

describe('the page state', () => {
  it('keeps the later copy of a message whatever order the copies arrive in', () => {
    const sent = message(1);
    const edited = { ...sent, content: 'edited', edited_at: at(100) };
    const deleted = { ...sent, content: null, deleted_at: at(200), edited_at: at(100) };
    let state = playgroundReducer(EMPTY_STATE, { type: 'event', event: { type: 'message.delete', message: deleted } });
    state = playgroundReducer(state, { type: 'message.stored', message: edited });
    state = playgroundReducer(state, { type: 'event', event: { type: 'message.create', message: sent } });
    expect(state.messages[BOARD]?.[sent.id]?.deleted_at).toBe(at(200));

    let other = playgroundReducer(EMPTY_STATE, { type: 'message.stored', message: edited });
    other = playgroundReducer(other, { type: 'event', event: { type: 'message.create', message: sent } });
    expect(other.messages[BOARD]?.[sent.id]?.content).toBe('edited');
  });

  it('settles an invoked command when its answer arrives, before interaction.update', () => {
    const view = interaction(1, 15);
    let state = playgroundReducer(EMPTY_STATE, { type: 'interaction.invoked', interaction: view.interaction });
    const answer = message(2, {
      author: BOT,
      kind: 'interaction_response',
      interaction: { id: view.interaction.id, name: 'roll', user_id: ALICE },
    });
    state = playgroundReducer(state, { type: 'event', event: { type: 'message.create', message: answer } });
    const settled = state.interactions[BOARD]?.[view.interaction.id];
    expect(settled?.status).toBe('answered');
    expect(settled?.answers.map((m) => m.id)).toEqual([answer.id]);
    // A late `interaction.create` (or a stale reload) does not make it pending again.
    state = playgroundReducer(state, {
      type: 'event',
      event: { type: 'interaction.create', interaction: view.interaction },
    });
    expect(state.interactions[BOARD]?.[view.interaction.id]?.status).toBe('answered');
  });

  it('updates the commands of an app on commands.update and forgets everything on reset', () => {
    const app: AppInfo = {
      id: APP,
      name: 'dev-bot',
      description: null,
      bot_user_id: BOT,
      created_at: at(0),
      board_ids: [BOARD],
      commands: [],
      token_strength: 'strong',
    };
    let state = playgroundReducer(EMPTY_STATE, { type: 'state.loaded', state: { users: [], boards: [], apps: [app] } });
    state = playgroundReducer(state, {
      type: 'event',
      event: { type: 'commands.update', app_id: APP, commands: [command('roll', [sides])] },
    });
    expect(state.apps[0]?.commands.map((c) => c.name)).toEqual(['roll']);
    state = playgroundReducer(state, { type: 'message.stored', message: message(1) });
    expect(playgroundReducer(state, { type: 'event', event: { type: 'reset' } })).toEqual(EMPTY_STATE);
  });
});

describe('the message list', () => {
  const byId = <T extends { id: string }>(items: T[]) => Object.fromEntries(items.map((i) => [i.id, i]));

  it('shows messages by seq and a waiting command where it was invoked', () => {
    const messages = byId([message(3), message(1), message(2)]);
    const waiting = interaction(1, 15); // between message 1 (10 s) and message 2 (20 s)
    const items = buildTimeline(messages, { [waiting.interaction.id]: waiting }, Date.parse(at(16)));
    expect(items.map((i) => (i.kind === 'message' ? i.message.seq : 'cmd'))).toEqual([1, 'cmd', 2, 3]);
    expect(items[1]).toMatchObject({ kind: 'interaction', unanswered: false });
  });

  it('drops a command from the list once an answer shows who used it', () => {
    const view = interaction(1, 15);
    const answer = message(2, { interaction: { id: view.interaction.id, name: 'roll', user_id: ALICE } });
    const items = buildTimeline(byId([answer]), { [view.interaction.id]: view }, Date.parse(at(16)));
    expect(items.map((i) => i.kind)).toEqual(['message']);
  });

  it('says the app did not answer once the token expired, even before the emulator says so', () => {
    const view = interaction(1, 0);
    const expiry = Date.parse(view.interaction.expires_at);
    expect(nextExpiry({ [view.interaction.id]: view }, expiry - 1)).toBe(expiry);
    const before = buildTimeline({}, { [view.interaction.id]: view }, expiry - 1);
    const after = buildTimeline({}, { [view.interaction.id]: view }, expiry);
    expect(before[0]).toMatchObject({ kind: 'interaction', unanswered: false });
    expect(after[0]).toMatchObject({ kind: 'interaction', unanswered: true });
    const expired = { ...view, status: 'expired' as const };
    expect(buildTimeline({}, { [view.interaction.id]: expired }, 0)[0]).toMatchObject({ unanswered: true });
    expect(nextExpiry({ [view.interaction.id]: expired }, 0)).toBeUndefined();
  });
});

describe('formatting', () => {
  it('names authors: webhooks, apps, people and the platform', () => {
    const users = new Map([
      [
        ALICE,
        { id: ALICE, username: 'alice', display_name: 'Alice', avatar_url: null, is_bot: false, created_at: at(0) },
      ],
      [
        BOT,
        { id: BOT, username: 'dev-bot', display_name: 'dev-bot', avatar_url: null, is_bot: true, created_at: at(0) },
      ],
    ]);
    expect(authorOf(message(1), users)).toEqual({ name: 'Alice', badge: undefined, userId: ALICE });
    expect(authorOf(message(1, { author: BOT }), users).badge).toBe('app');
    expect(authorOf(message(1, { author: null, webhook_name: 'CI' }), users)).toMatchObject({
      name: 'CI',
      badge: 'webhook',
    });
    expect(authorOf(message(1, { author: null }), users).badge).toBe('system');
  });

  it('names user and board options instead of showing their ids', () => {
    const alice = {
      id: ALICE,
      username: 'alice',
      display_name: 'Alice',
      avatar_url: null,
      is_bot: false,
      created_at: at(0),
    };
    const nameOf = namerOf(new Map([[ALICE, alice]]), [{ id: BOARD, name: 'general' }]);
    expect(describeOptions({ who: ALICE, where: BOARD, note: 'plain' }, nameOf)).toBe(
      'who: @alice · where: #general · note: plain',
    );
  });

  it('quotes replies briefly and refuses non-http links', () => {
    expect(snippet(message(1, { content: 'a'.repeat(100) }), 10)).toBe(`${'a'.repeat(9)}…`);
    expect(snippet(message(1, { deleted_at: at(5), content: null }))).toBe('Deleted message');
    expect(describeOptions({ sides: 20, loud: true })).toBe('sides: 20 · loud: yes');
    const media = { url: 'https://example.com/a.png', content_type: 'image/png', size: 1, width: null, height: null };
    expect(snippet(message(1, { content: null, media }))).toBe('Attachment');
    expect([formatBytes(999), formatBytes(1500), formatBytes(12_345_678)]).toEqual(['999 B', '1.5 kB', '12 MB']);
    expect(isHttpUrl('https://example.com/x.png')).toBe(true);
    expect(isHttpUrl('javascript:alert(1)')).toBe(false);
  });

  it('names an attachment by its URL whatever the URL holds (a % once crashed the media view)', () => {
    expect(mediaName('https://files.example/dir/a%20b.png')).toBe('a b.png');
    expect(mediaName('https://files.example/100%.png')).toBe('100%.png');
    expect(mediaName('https://files.example/a%zz.png')).toBe('a%zz.png');
    expect(mediaName('https://files.example/%E2%9C%93%zz%E2%9C%93')).toBe('✓%zz✓');
    expect(mediaName(`https://files.example/"quoted'%zz".txt`)).toBe(`"quoted'%zz".txt`);
    expect(mediaName('https://files.example/')).toBe('attachment');
    expect(mediaName('https://[bad')).toBe('attachment');
  });
});

describe('message text', () => {
  it('styles chat emphasis, code and links, and leaves the rest as text', () => {
    expect(inlineSpans('You rolled **17** on a `d20`, see https://example.com/rules.')).toEqual([
      { kind: 'text', text: 'You rolled ' },
      { kind: 'bold', text: '17' },
      { kind: 'text', text: ' on a ' },
      { kind: 'code', text: 'd20' },
      { kind: 'text', text: ', see ' },
      { kind: 'link', text: 'https://example.com/rules' },
      { kind: 'text', text: '.' },
    ]);
    expect(inlineSpans('*really* and _truly_')).toEqual([
      { kind: 'italic', text: 'really' },
      { kind: 'text', text: ' and ' },
      { kind: 'italic', text: 'truly' },
    ]);
  });

  it('keeps markup-looking text as text (never HTML) and leaves lone markers alone', () => {
    expect(inlineSpans('<b>hi</b> 2 * 3 * 4 snake_case_name')).toEqual([
      { kind: 'text', text: '<b>hi</b> 2 * 3 * 4 snake_case_name' },
    ]);
    expect(inlineSpans('javascript:alert(1)')).toEqual([{ kind: 'text', text: 'javascript:alert(1)' }]);
  });
});
