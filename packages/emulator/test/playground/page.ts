import type { Locator, Page } from 'playwright-core';

/** How long the browser tests wait for the page to show something (it is a wait, not a measure). */
export const SHOW_TIMEOUT_MS = 15_000;

/** Waits until `locator` is visible. */
export function shown(locator: Locator): Promise<void> {
  return locator.waitFor({ state: 'visible', timeout: SHOW_TIMEOUT_MS });
}

/** Waits until `locator` matches nothing. */
export function gone(locator: Locator): Promise<void> {
  return locator.waitFor({ state: 'detached', timeout: SHOW_TIMEOUT_MS });
}

/**
 * The playground as a person uses it: by labels, roles and visible text, as a screen reader or a
 * keyboard would, never by internal class names where a role exists.
 */
export class PlaygroundPage {
  /** @param page - a page showing the playground. */
  constructor(readonly page: Page) {}

  /** The message composer of the board on screen. */
  get composer(): Locator {
    return this.page.getByRole('textbox', { name: /^(Message|Reply in) #/ });
  }

  /** The live message list. */
  get log(): Locator {
    return this.page.getByRole('log');
  }

  /** The list item of the message (or waiting command) that shows `text`. */
  item(text: string | RegExp): Locator {
    return this.log.getByRole('listitem').filter({ hasText: text });
  }

  /** Opens the page and waits until it follows the emulator live. */
  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await shown(this.page.getByRole('status').filter({ hasText: 'Live' }));
  }

  /** Chooses who the person at the keyboard is. */
  async be(displayName: string): Promise<void> {
    const picker = this.page.getByLabel('You are');
    const value = await picker.getByRole('option').filter({ hasText: displayName }).first().getAttribute('value');
    await picker.selectOption(value ?? '');
  }

  /** Types `text` in the composer and sends it with Enter, then waits for it in the list. */
  async send(text: string): Promise<Locator> {
    await this.composer.fill(text);
    await this.composer.press('Enter');
    // The first item with the text is the message sent: a bot's reply quoting it comes after it,
    // and may already be shown (a fast bot).
    const item = this.item(text).first();
    await shown(item);
    return item;
  }

  /** Opens the form of `/name` by typing its start and picking it with Enter. */
  async openCommand(name: string): Promise<Locator> {
    // Two letters narrow the list without naming the command (other commands may share them): the
    // person then picks the one they mean.
    await this.composer.fill(`/${name.slice(0, 2)}`);
    const option = this.page.getByRole('option', { name: new RegExp(`/${name}\\b`) });
    await shown(option);
    await option.click();
    const form = this.page.getByRole('form', { name: new RegExp(`/${name}`) });
    await shown(form);
    return form;
  }
}
