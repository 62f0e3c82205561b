// The app of the host soak (scripts/host-soak.mjs): the bot module every app of the host runs
// (`boardbot start --host` imports its default export). `ping <tag>` is answered `pong <tag>` and
// `/echo tag:<tag>` `echo <tag>`, so the soak counts answers lost and doubled on the platform.
import { defineBot, OnMessage } from '@boardbot/core';
import { decorate, echoCommand } from './echo-command.mjs';

/** `/echo tag:<tag>`: its run returns the answer, which the framework posts. */
const Echo = echoCommand((_ctx, text) => text);

class Ping {
  /** `ping <tag>` → `pong <tag>`. */
  async ping(ctx) {
    await ctx.reply(`pong ${ctx.match[1]}`);
  }
}
decorate(Ping.prototype, 'ping', OnMessage(/^ping (\S+)$/));

export default defineBot({ handlers: [Echo, Ping] });
