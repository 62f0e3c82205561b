import type { BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DicePlayground, SCREENSHOTS, startDicePlayground } from './playground/dice-playground.js';
import { PlaygroundPage, shown } from './playground/page.js';

// The playground's "Why?" in real headless Chromium: the dice bot of examples/dice answers on the real
// runtime, which names its handler and event in W3C baggage; the page shows what the emulator saw.

let dice: DicePlayground;
let context: BrowserContext | undefined;

beforeAll(async () => {
  dice = await startDicePlayground();
});

afterEach(async () => {
  await context?.close();
  context = undefined;
});

afterAll(() => dice?.close());

describe("the playground's why", () => {
  it('opens beside a bot answer: the event, the handler, and the REST call that posted it with its status', async () => {
    context = await dice.browser.newContext({ viewport: { width: 1200, height: 800 } });
    const person = new PlaygroundPage(await context.newPage());
    await person.open(dice.urls.playgroundUrl);
    const form = await person.openCommand('roll');
    await form.getByLabel('sides').fill('20');
    await form.getByLabel('sides').press('Enter');
    const answer = person.item('You rolled 11 (d20)');
    await shown(answer);

    await answer.hover();
    await answer.getByRole('button', { name: /^Why\?/ }).click();
    const why = answer.getByRole('region', { name: 'Why this answer' });
    await shown(why.getByRole('table'));
    const facts = await why.locator('dl').innerText();
    expect(facts).toContain('Roll.run');
    expect(facts).toMatch(/#\d+ interaction\.create \/roll/);
    const rows = await why.getByRole('row').allInnerTexts();
    const post = rows.find((r) => r.includes('POST /api/v1/interactions/:token'));
    expect(post).toMatch(/200/);
    expect(post).toContain('Roll.run');
    expect(post).toMatch(/\d+(\.\d+)? ms/);
    await person.page.screenshot({ path: `${SCREENSHOTS}playground-why.png` });

    // The page shows what the emulator recorded, nothing of its own making.
    const stored = (await dice.control.messages(dice.general.id, { limit: 10 })).find(
      (m) => m.kind === 'interaction_response',
    );
    const recorded = await dice.control.why(dice.general.id, stored?.id ?? '');
    expect(recorded.handler).toBe('Roll.run');
    expect(await why.getByText(recorded.request_id ?? 'no request id').count()).toBe(1);
    // A person's own message offers no "Why?".
    const said = await person.send('just a person talking');
    await said.hover();
    expect(await said.getByRole('button', { name: /^Why\?/ }).count()).toBe(0);
  });
});
