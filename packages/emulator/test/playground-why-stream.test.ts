import { mkdirSync } from 'node:fs';
import { type Bot, createBot, type MessageContext, OnMessage } from '@boardbot/core';
import { createEmulator, type Emulator, type EmulatorUrls } from '@boardbot/emulator';
import { type Board, ControlClient } from '@boardbot/emulator/control';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './playground/browser.js';
import { ensurePlaygroundBuilt } from './playground/build-page.js';
import { SCREENSHOTS } from './playground/dice-playground.js';
import { PlaygroundPage, SHOW_TIMEOUT_MS, shown } from './playground/page.js';

// The playground's "Why?" beside a streamed answer, in real headless Chromium: a bot on the real
// runtime streams its answer (`ctx.stream`) from a source the test feeds piece by piece; the open
// panel follows the answer as it grows and lists its edits as the emulator recorded them.

/** The model: the test gives each piece, then ends it. */
const model = (() => {
  const pieces: string[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  async function* source(): AsyncGenerator<string> {
    for (;;) {
      const piece = pieces.shift();
      if (piece !== undefined) yield piece;
      else if (ended) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  }
  return {
    source,
    push: (text: string) => {
      pieces.push(text);
      poke();
    },
    end: () => {
      ended = true;
      poke();
    },
  };
})();

class Assistant {
  @OnMessage(/^ask /)
  async answer(ctx: MessageContext) {
    await ctx.stream(model.source(), { throttleMs: 0 });
  }
}

let emulator: Emulator;
let urls: EmulatorUrls;
let control: ControlClient;
let bot: Bot;
let browser: Browser;
let general: Board;
let context: BrowserContext | undefined;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await ensurePlaygroundBuilt();
  emulator = await createEmulator({ db: ':memory:', seed: true, logger: false });
  urls = await emulator.listen({ host: '127.0.0.1', port: 0 });
  control = new ControlClient({ url: urls.controlUrl, adminKey: emulator.adminKey });
  bot = createBot({
    token: emulator.devToken,
    apiUrl: urls.apiUrl,
    handlers: [Assistant],
    logger: false,
    handleSignals: false,
  });
  await bot.start();
  browser = await launchChromium();
  general = (await control.state()).boards.find((b) => b.name === 'general') as Board;
});

afterAll(async () => {
  model.end();
  await context?.close();
  await browser?.close();
  await bot?.stop();
  await emulator?.close();
});

describe("the playground's why beside a streamed answer", () => {
  it('shows the answer growing: its edits, oldest first, each with its text and the run that sent it', async () => {
    context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const person = new PlaygroundPage(await context.newPage());
    await person.open(urls.playgroundUrl);
    await person.send('ask me something');

    model.push('Thinking about');
    const answer = person.item(/Thinking about/);
    await shown(answer);
    await answer.hover();
    await answer.getByRole('button', { name: /^Why\?/ }).click();
    const why = answer.getByRole('region', { name: 'Why this answer' });
    const edits = why.getByRole('table').filter({ hasText: 'Edits, oldest first' });
    await shown(edits);
    expect(await edits.getByRole('row').last().innerText()).toContain('Thinking about');

    // The panel stays open and follows each edit.
    model.push(' your question.');
    await shown(edits.getByRole('row').filter({ hasText: 'your question. ▍' }));
    model.push(' The answer is 42.');
    model.end();
    const last = edits.getByRole('row').last();
    await last.getByText(/The answer is 42\.$/).waitFor({ state: 'visible', timeout: SHOW_TIMEOUT_MS });
    await person.page.screenshot({ path: `${SCREENSHOTS}playground-why-stream.png` });

    // The page shows what the emulator recorded, nothing of its own making: every edit, in order.
    const [stored] = (await control.messages(general.id, { limit: 10 })).filter((m) => m.author !== null && m.reply_to);
    const recorded = await control.why(general.id, stored?.id ?? '');
    expect(recorded.edits.at(-1)?.content).toBe('Thinking about your question. The answer is 42.');
    await expect
      .poll(async () => (await edits.getByRole('row').count()) - 1, { timeout: SHOW_TIMEOUT_MS })
      .toBe(recorded.edits.length);
    expect(recorded.edits.length).toBeGreaterThanOrEqual(3);
    const texts = await edits.locator('tbody tr').allInnerTexts();
    expect(texts[0]).toContain('Thinking about');
    expect(await why.getByText(recorded.edits[0]?.request_id ?? 'no request id').count()).toBeGreaterThan(0);
  });
});
