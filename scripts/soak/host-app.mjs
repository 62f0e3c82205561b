// The app of the host soak (scripts/host-soak.mjs): the bot module every app of the host runs
// (`boardbot start --host` imports its default export). `ping <tag>` is answered `pong <tag>` and
// `/echo tag:<tag>` `echo <tag>`, so the soak counts answers lost and doubled on the platform.
// Decorators are applied by hand: plain Node runs no TypeScript decorators.
import { Command, defineBot, OnMessage, Option } from '@boardbot/core';
import { IsString, MaxLength } from 'class-validator';

function decorate(target, key, ...decorators) {
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  for (const d of decorators.reverse()) d(target, key, descriptor);
}

class EchoOptions {}
decorate(
  EchoOptions.prototype,
  'tag',
  Reflect.metadata('design:type', String),
  Option({ description: 'Tag' }),
  IsString(),
  MaxLength(64),
);

/** `/echo tag:<tag>` answers `echo <tag>`. */
class Echo {
  run(_ctx, { tag }) {
    return `echo ${tag}`;
  }
}
Command({ name: 'echo', description: 'Echo a tag', options: EchoOptions })(Echo);

class Ping {
  /** `ping <tag>` → `pong <tag>`. */
  async ping(ctx) {
    await ctx.reply(`pong ${ctx.match[1]}`);
  }
}
decorate(Ping.prototype, 'ping', OnMessage(/^ping (\S+)$/));

export default defineBot({ handlers: [Echo, Ping] });
