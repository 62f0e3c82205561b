// What the soaks' bots share (scripts/soak/soak-bot.mjs, a bot of its own; scripts/soak/host-app.mjs,
// the module of every app of the host soak): decorators applied by hand, plain Node running no
// TypeScript decorators, and the `/echo tag:<tag>` command, answered `echo <tag>`.
import { Command, Option } from '@boardbot/core';
import { IsString, MaxLength } from 'class-validator';

/** Applies `decorators` to the member `key` of `target`, as TypeScript would (the last one first). */
export function decorate(target, key, ...decorators) {
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

/**
 * The `/echo tag:<tag>` command class: its run answers `echo <tag>` through `answer`.
 * @param answer - `(ctx, text)`: what the run returns (the text, for the framework to post; or a promise of the bot's own reply)
 */
export function echoCommand(answer) {
  class Echo {
    run(ctx, { tag }) {
      return answer(ctx, `echo ${tag}`);
    }
  }
  Command({ name: 'echo', description: 'Echo a tag', options: EchoOptions })(Echo);
  return Echo;
}
