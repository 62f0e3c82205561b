import { Cooldown, Injectable, type MessageContext, OnMessage, UseGuards } from '@boardbot/core';
import { BreaksLinkRules } from './breaks-link-rules.js';
import { findBannedWord, findForbiddenHost, LINK } from './checks.js';
import { FloodTracker } from './flood-tracker.js';
import { Rules } from './rules.js';
import { Warnings } from './warnings.js';

/** One link warning per person per minute: someone pasting five bad links gets one warning. */
const LINK_COOLDOWN_MS = 60_000;

/**
 * The message listeners: banned words and floods on every message; links on messages with a link
 * that breaks the rules (the guard decides, before the cooldown counts).
 */
@Injectable()
export class Watchdog {
  constructor(
    private readonly rules: Rules,
    private readonly flood: FloodTracker,
    private readonly warnings: Warnings,
  ) {}

  @OnMessage()
  async words(ctx: MessageContext) {
    const { message } = ctx;
    // Webhooks have no author to warn or count.
    if (message.author === null || message.content === null) return;
    const word = findBannedWord(message.content, this.rules.bannedWords);
    if (word !== undefined) {
      await this.warnings.warn(ctx, `please keep it civil: "${word}" is not allowed here`);
      return;
    }
    if (this.flood.record(ctx.boardId, message.author)) {
      const { messages, windowMs } = this.rules.flood;
      await this.warnings.warn(ctx, `slow down: more than ${messages} messages in ${windowMs / 1000} s`);
    }
  }

  @OnMessage(new RegExp(LINK.source, 'i'))
  @UseGuards(BreaksLinkRules)
  @Cooldown({ ms: LINK_COOLDOWN_MS, per: 'user' })
  async links(ctx: MessageContext) {
    const host = findForbiddenHost(ctx.message.content ?? '', this.rules.allowedHosts);
    await this.warnings.warn(ctx, `links to ${host} are not allowed here`);
  }
}
