import { deriveCommands } from '@boardbot/core';
import { createEmulator, type Emulator, type EmulatorUrls } from '@boardbot/emulator';
import { type Board, ControlClient, type UserProfile } from '@boardbot/emulator/control';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { DICE_HANDLERS } from '../../../examples/dice/src/bot.js';
import { type DicePlayground, SCREENSHOTS, startDicePlayground } from './playground/dice-playground.js';
import { startImageServer } from './playground/image-server.js';
import { gone, PlaygroundPage, SHOW_TIMEOUT_MS, shown } from './playground/page.js';

// The playground in real headless Chromium against a real emulator on loopback, with the dice bot of
// examples/dice running on the real runtime over the real app API and gateway. Every assertion reads the page as a person sees
// it (roles, labels, text) and, where it matters, checks the emulator agrees.

let dice: DicePlayground;
let emulator: Emulator;
let urls: EmulatorUrls;
let control: ControlClient;
/** The dice bot's command set, as it registers it. */
const DICE_COMMANDS = deriveCommands(DICE_HANDLERS);
let browser: Browser;
let general: Board;
let people: Record<string, UserProfile>;
// Shifts the emulator's clock, to reach an interaction token's expiry without waiting 15 minutes.
let skewMs = 0;

beforeAll(async () => {
  dice = await startDicePlayground({ now: () => Date.now() + skewMs });
  ({ emulator, urls, control, browser, general, people } = dice);
});

afterAll(() => dice?.close());

let context: BrowserContext;
let person: PlaygroundPage;

beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  person = new PlaygroundPage(await context.newPage());
});

afterEach(async () => {
  await context.close();
  skewMs = 0;
});

const messagesOf = (board: Board) => control.messages(board.id, { limit: 100 });

describe('the playground page', () => {
  it('opens from the printed URL and sends a message live, as alice by default', async () => {
    await person.open(urls.playgroundUrl);
    await shown(person.page.getByRole('heading', { name: 'general' }));
    await person.send('hello from the playground');

    const stored = (await messagesOf(general)).find((m) => m.content === 'hello from the playground');
    expect(stored?.author).toBe(people.alice?.id);
    // Another client's message appears without a reload: the activity stream is live.
    await control.postMessage(general.id, { user_id: people.bob?.id ?? '', content: 'bob says hi from elsewhere' });
    await shown(person.item('bob says hi from elsewhere').getByText('Bob', { exact: true }));
  });

  it('invokes /roll with an option and shows the bot answer with who used the command', async () => {
    await person.open(urls.playgroundUrl);
    const form = await person.openCommand('roll');
    await form.getByLabel('sides').fill('20');
    await form.getByLabel('sides').press('Enter');

    // 0.5 on a d20 is 11; the answer says who used which command with which option.
    const answer = person.item('You rolled 11 (d20)');
    await shown(answer);
    expect(await answer.textContent()).toContain('Alice used /roll sides: 20');
    expect(await answer.getByText('app', { exact: true }).count()).toBe(1);
    const stored = (await messagesOf(general)).find((m) => m.kind === 'interaction_response');
    expect(stored?.content).toContain('You rolled **11** (d20)');
    await gone(person.page.getByText('Waiting for dev-bot to answer'));
    // The composer is back and focused for the next message.
    expect(await person.composer.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  });

  it('suggests the commands as text after !, and a pick writes the name for the arguments', async () => {
    await person.open(urls.playgroundUrl);
    // On #random, so the bot's reply stays out of the tests that read #general.
    await person.page.getByRole('link', { name: 'random' }).click();
    await shown(person.page.getByRole('heading', { name: 'random' }));
    await person.composer.focus();
    await person.page.keyboard.type('!ro');
    const list = person.page.getByRole('listbox', { name: 'Text commands (for bots that take them)' });
    await shown(list);
    expect(await list.getByRole('option').allTextContents()).toEqual([
      expect.stringMatching(/^!roll \[sides\] \[count\] \[style\]Roll dice/),
    ]);
    await person.page.keyboard.press('Enter');
    await gone(list);
    expect(await person.composer.inputValue()).toBe('!roll ');
    await person.page.keyboard.type('20');
    await person.page.keyboard.press('Enter');

    // The bot takes it as a text command: its answer is a reply to the message.
    await shown(person.item('You rolled 11 (d20)'));
    const random = (await control.boards()).find((b) => b.name === 'random');
    const stored = await control.messages(random?.id ?? '', { limit: 100 });
    const sent = stored.find((m) => m.content === '!roll 20');
    expect(sent).toBeDefined();
    expect(stored.find((m) => m.content?.includes('You rolled **11** (d20)'))?.reply_to).toBe(sent?.id);
  });

  it('explains an out-of-range option beside its field and sends nothing', async () => {
    await person.open(urls.playgroundUrl);
    const before = await control.interactions({ boardId: general.id });
    const form = await person.openCommand('roll');
    const sides = form.getByLabel('sides');
    await sides.fill('1');
    await form.getByRole('button', { name: 'Send /roll' }).click();

    await shown(form.getByText('Must be 2 to 1000.'));
    expect(await sides.getAttribute('aria-invalid')).toBe('true');
    // The error is tied to the field for screen readers, and the field has the focus to fix it.
    const describedBy = (await sides.getAttribute('aria-describedby')) ?? '';
    const errorId = describedBy.split(' ')[0] ?? '';
    expect(await person.page.locator(`#${errorId}`).textContent()).toBe('Must be 2 to 1000.');
    expect(await sides.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await sides.fill('ten');
    await sides.press('Enter');
    await shown(form.getByText('Enter a whole number.'));
    const after = await control.interactions({ boardId: general.id });
    expect(after.length).toBe(before.length);
  });

  it('shows the emulator validation error beside the field when the page knew an old registration', async () => {
    // The page cannot hear the activity stream (as during a network blip), so it misses the bot
    // narrowing /roll to 2..6: the emulator is the judge, and its error lands beside the field.
    await person.page.route('**/_emulator/v1/events*', (route) => route.abort());
    await person.page.goto(urls.playgroundUrl);
    await shown(person.page.getByRole('status').filter({ hasText: 'Reconnecting' }));
    const form = await person.openCommand('roll');
    await putRoll(6);
    try {
      await form.getByLabel('sides').fill('20');
      await form.getByLabel('sides').press('Enter');
      const sides = form.getByLabel('sides');
      await shown(form.locator('.field-error'));
      expect(await sides.getAttribute('aria-invalid')).toBe('true');
      expect(await form.locator('.field-error').textContent()).toMatch(/6/);

      // Once the stream is back, the page reloads and the form shows the new bounds.
      await person.page.unroute('**/_emulator/v1/events*');
      await shown(person.page.getByRole('status').filter({ hasText: 'Live' }));
      await shown(form.getByText('2 to 6', { exact: false }));
    } finally {
      await putRoll(1000);
    }
  });

  it('edits and deletes propagate live to another person’s page; only one’s own messages offer them', async () => {
    const alice = person;
    // Bob has his own browser (context): his own storage, and a page in the foreground.
    const bobContext = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    onTestFinished(() => bobContext.close());
    const bob = new PlaygroundPage(await bobContext.newPage());
    await alice.open(urls.playgroundUrl);
    await bob.open(urls.playgroundUrl);
    await bob.be('Bob');

    const mine = await alice.send('a message to change');
    await shown(bob.item('a message to change'));
    await bob.item('a message to change').hover();
    expect(await bob.item('a message to change').getByRole('button', { name: 'Edit' }).count()).toBe(0);

    await mine.hover();
    await mine.getByRole('button', { name: 'Edit' }).click();
    // While editing, the text lives in the editor's value, so look the editor up on the page.
    const editor = alice.page.getByRole('textbox', { name: 'Edit message' });
    expect(await editor.inputValue()).toBe('a message to change');
    await editor.fill('a message, changed');
    await editor.press('Enter');
    const edited = bob.item('a message, changed');
    await shown(edited.getByText('(edited)'));

    const changed = alice.item('a message, changed');
    await changed.hover();
    await changed.getByRole('button', { name: 'Delete' }).click();
    await changed.getByRole('button', { name: 'Delete for everyone' }).click();
    await gone(bob.item('a message, changed'));
    await shown(bob.log.getByText('This message was deleted').last());
    const tombstone = (await messagesOf(general)).find((m) => m.deleted_at !== null);
    expect(tombstone?.content).toBeNull();
  });

  it('sends a reply that quotes the message it answers', async () => {
    await person.open(urls.playgroundUrl);
    const original = await person.send('what should I roll?');
    await original.hover();
    await original.getByRole('button', { name: /^Reply/ }).click();
    await shown(person.page.getByText('Replying to Alice'));
    await person.composer.fill('a d20, surely');
    await person.composer.press('Enter');

    const reply = person.item('a d20, surely');
    await shown(reply);
    expect(await reply.textContent()).toContain('Replying to Alice: what should I roll?');
    const stored = await messagesOf(general);
    const target = stored.find((m) => m.content === 'what should I roll?');
    expect(stored.find((m) => m.content === 'a d20, surely')?.reply_to).toBe(target?.id);
  });

  it('renders webhook posts with embeds', async () => {
    const images = await startImageServer();
    onTestFinished(() => images.close());
    await control.postMessage(general.id, {
      webhook_name: 'CI',
      embeds: [
        {
          title: 'Build #42 passed',
          url: 'https://ci.example.com/builds/42',
          description: 'All tests passed on **main**.',
          color: '#22c55e',
          fields: [
            { name: 'Branch', value: 'main', inline: true },
            { name: 'Duration', value: '3m 12s', inline: true },
          ],
          image: { url: images.url },
        },
      ],
    });
    await person.open(urls.playgroundUrl);
    const post = person.item('Build #42 passed');
    await shown(post);
    expect(await post.getByText('webhook', { exact: true }).count()).toBe(1);
    expect(await post.getByRole('link', { name: 'Build #42 passed' }).getAttribute('href')).toBe(
      'https://ci.example.com/builds/42',
    );
    expect(await post.getByRole('strong').textContent()).toBe('main');
    expect(await post.locator('dt').allTextContents()).toEqual(['Branch', 'Duration']);
    const border = await post
      .getByRole('article')
      .evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).borderInlineStartColor);
    expect(border).toBe('rgb(34, 197, 94)');
    // Issue 29 finding 6: the image is a link, never loaded, so its host never learns of the viewer.
    const image = post.getByRole('link', { name: `Image: ${images.url}` });
    await shown(image);
    expect(await image.getAttribute('href')).toBe(images.url);
    expect(await image.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await post.getByRole('img').count()).toBe(0);
    expect(images.requests()).toBe(0);
  });

  it('works under its Content-Security-Policy: no violation, a message sent and shown, media of any URL as links', async () => {
    const violations: string[] = [];
    person.page.on('console', (m) => {
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    person.page.on('pageerror', (error) => violations.push(error.message));
    // Chromium reports a blocked load on the console; the event catches any other violation too.
    await person.page.addInitScript({
      content: `document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective));`,
    });
    // The emulator stores no media (no API attaches any), so the test gives a message some on its way
    // to the page: URLs with a lone %, an invalid %zz and quotes (finding 8: a % crashed the view).
    const odd = [
      'https://files.example/100%.png',
      'https://files.example/a%zz"b\'c.pdf',
      'https://files.example/%E2%9C%93.txt',
    ];
    const marker = 'three odd attachments';
    await control.postMessage(general.id, { user_id: people.bob?.id ?? '', content: marker });
    // The page may fetch the list more than once per load (again once live): each fetch shows `current`.
    let current = odd[0] ?? '';
    await person.page.route(/\/_emulator\/v1\/boards\/[^/?]+\/messages(\?|$)/, async (route) => {
      const response = await route.fetch();
      const text = await response.text();
      const json = JSON.parse(text, (_key, value: unknown) => {
        if (value && typeof value === 'object' && (value as { content?: unknown }).content === marker) {
          return { ...value, media: { url: current, content_type: 'image/png', size: 2048, width: 64, height: 64 } };
        }
        return value;
      });
      await route.fulfill({ status: response.status(), contentType: 'application/json', json });
    });
    const response = await person.page.goto(urls.playgroundUrl);
    expect(response?.headers()['content-security-policy']).toContain("img-src 'self' data:");
    await shown(person.page.getByRole('status').filter({ hasText: 'Live' }));

    const item = person.item(marker);
    await shown(item);
    const link = item.getByRole('link', { name: /100%\.png/ });
    await shown(link);
    expect(await link.getAttribute('href')).toBe(odd[0]);
    expect(await item.getByRole('img').count()).toBe(0);
    await person.send('still working under the policy');
    // The other two URLs, each through the same view on a reload.
    for (const [i, name] of [
      [1, /a%zz"b'c\.pdf/],
      [2, /✓\.txt/],
    ] as const) {
      current = odd[i] ?? '';
      await person.page.reload();
      await shown(person.item(marker).getByRole('link', { name }));
      expect(await person.item(marker).getByRole('link', { name }).getAttribute('href')).toBe(odd[i]);
    }
    await shown(person.item('still working under the policy'));
    expect(violations).toEqual([]);
  });

  it('shows a waiting command, then that the app did not answer once its token expired', async () => {
    // An app with no process behind it: its /ping is registered and installed, but nobody answers.
    const silent = await control.createApp({ name: 'silent-bot' });
    await control.install(silent.app.id, general.id);
    await putCommands([{ name: 'ping', description: 'Never answered' }], silent.token);
    try {
      await person.page.clock.install();
      await person.open(urls.playgroundUrl);
      await person.openCommand('ping');
      await person.page.getByRole('button', { name: 'Send /ping' }).click();
      const waiting = person.item('Alice used /ping');
      await shown(waiting.getByText('Waiting for silent-bot to answer'));

      // The page's clock passes the 15 minutes: it says so by itself...
      await person.page.clock.fastForward('16:00');
      await shown(waiting.getByText('The app did not answer.'));
      // ...and the emulator agrees after a reload (its clock moved too).
      skewMs = 16 * 60 * 1000;
      await person.page.reload();
      await shown(person.item('Alice used /ping').getByText('The app did not answer.'));
    } finally {
      await control.uninstall(silent.app.id, general.id);
    }
  });

  it('creates a new person who can talk at once', async () => {
    await person.open(urls.playgroundUrl);
    await person.page.getByLabel('You are').selectOption({ label: 'New person…' });
    await person.page.getByLabel('Username').fill('carol');
    await person.page.getByLabel('Display name').fill('Carol');
    await person.page.getByRole('button', { name: 'Create' }).click();
    await shown(person.page.getByRole('combobox', { name: 'You are' }));
    expect(await person.page.getByLabel('You are').inputValue()).not.toBe(people.alice?.id);
    const said = await person.send('carol is here');
    expect(await said.getByText('Carol', { exact: true }).count()).toBe(1);
  });

  it('reconnects by itself when the emulator restarts, and shows the new platform', async () => {
    // An emulator of its own, restarted on the same port with the same key (BOARDBOT_ADMIN_KEY).
    const adminKey = 'playground-restart-key';
    const first = await createEmulator({ db: ':memory:', seed: true, logger: false, adminKey });
    const { playgroundUrl } = await first.listen({ host: '127.0.0.1', port: 0 });
    const port = Number(new URL(playgroundUrl).port);
    await person.open(playgroundUrl);
    await person.send('said before the restart');

    await first.close();
    await shown(person.page.getByRole('status').filter({ hasText: 'Reconnecting' }));
    const second = await createEmulator({ db: ':memory:', seed: true, logger: false, adminKey });
    onTestFinished(() => second.close());
    const restarted = await second.listen({ host: '127.0.0.1', port });
    await shown(person.page.getByRole('status').filter({ hasText: 'Live' }));

    // The new platform is empty; its messages arrive live on the page that never reloaded.
    const again = new ControlClient({ url: restarted.controlUrl, adminKey });
    const { boards, users } = await again.state();
    await again.postMessage(boards.find((b) => b.name === 'general')?.id ?? '', {
      user_id: users.find((u) => u.username === 'bob')?.id ?? '',
      content: 'said after the restart',
    });
    await shown(person.item('said after the restart'));
    expect(await person.item('said before the restart').count()).toBe(0);
    await person.send('and the page still talks');
  });

  it('without a valid key, explains how to get one and accepts a pasted key', async () => {
    await person.page.goto(`${urls.url}/`);
    await shown(person.page.getByRole('heading', { name: 'This page needs the emulator’s admin key' }));
    await person.page.goto(`${urls.url}/?key=not-the-key`);
    await shown(person.page.getByRole('heading', { name: 'The emulator did not accept this admin key' }));
    expect(await person.page.getByText('BOARDBOT_ADMIN_KEY').count()).toBe(1);

    await person.page.getByRole('textbox', { name: 'Admin key' }).fill(emulator.adminKey);
    await person.page.getByRole('textbox', { name: 'Admin key' }).press('Enter');
    await shown(person.page.getByRole('status').filter({ hasText: 'Live' }));
    expect(new URL(person.page.url()).searchParams.get('key')).toBe(emulator.adminKey);
  });

  it(
    'reads well on a narrow window and is usable by keyboard; saves screenshots',
    async () => {
      // Bob rolls through the control API (a d6 lands on 4 with this die); the bot answers.
      await control.invoke({
        board_id: general.id,
        user_id: people.bob?.id ?? '',
        command: 'roll',
        options: { sides: '6' },
      });
      await person.open(urls.playgroundUrl);
      await shown(person.item('You rolled 4 (d6)').first());
      await person.send('a last word before the screenshots');
      await person.page.screenshot({ path: `${SCREENSHOTS}playground-wide.png` });

      await person.page.setViewportSize({ width: 390, height: 760 });
      // The boards become a strip of tabs; nothing overflows sideways.
      await shown(person.page.getByRole('link', { name: 'random' }));
      const overflow = await person.page.evaluate(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      expect(overflow).toBe(0);
      await person.page.screenshot({ path: `${SCREENSHOTS}playground-narrow.png` });

      // Keyboard only: "/" lists commands, typing narrows them, Enter picks one, Escape closes the form.
      await person.composer.focus();
      await person.page.keyboard.type('/ro');
      await shown(person.page.getByRole('listbox'));
      await person.page.keyboard.press('Enter');
      const form = person.page.getByRole('form', { name: /\/roll/ });
      await shown(form);
      expect(await form.getByLabel('sides').evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
      await person.page.keyboard.press('Escape');
      await gone(form);
      await shown(person.composer);
    },
    2 * SHOW_TIMEOUT_MS,
  );
});

async function putCommands(commands: unknown[], token = emulator.devToken): Promise<void> {
  const { fetch } = await import('undici');
  const response = await fetch(`${urls.apiUrl}/app/commands`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(commands),
  });
  if (response.status !== 200) throw new Error(`PUT /app/commands answered ${response.status}`);
}

function putRoll(maxSides: number): Promise<void> {
  return putCommands(
    DICE_COMMANDS.map((c) =>
      c.name === 'roll'
        ? { ...c, options: c.options?.map((o) => (o.name === 'sides' ? { ...o, max_value: maxSides } : o)) }
        : c,
    ),
  );
}
