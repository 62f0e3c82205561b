import {
  Command,
  type CommandContext,
  createToken,
  defineBot,
  Inject,
  inject,
  type MessageContext,
  OnMessage,
} from '@boardbot/core';
import { createTestPlatform } from '@boardbot/testing';
import { describe, expect, it } from 'vitest';

// docs/testing.md, "Faking a provider that is an interface": a token names it, the bot's definition
// gives the real one, a test only the fake (issue 42: the model had to be wrapped in a class, and a
// listener class with a constructor failed with MissingMetadataError).

/** What the bot needs of a language model: an interface, which TypeScript erases. */
interface Model {
  complete(prompt: string): Promise<string>;
}
const MODEL = createToken<Model>('model');

/** A listener-only class (no class decorator): the model through inject(), no @Injectable. */
class AskListener {
  private readonly model = inject(MODEL);

  @OnMessage(/^!ask (.+)$/)
  answer(ctx: MessageContext) {
    return this.model.complete(ctx.match?.[1] ?? '');
  }
}

/** A listener-only class taking the model as a constructor parameter named by @Inject. */
class Summarize {
  constructor(@Inject(MODEL) private readonly model: Model) {}

  @OnMessage(/^!sum (.+)$/)
  answer(ctx: MessageContext) {
    return this.model.complete(`summarize: ${ctx.match?.[1] ?? ''}`);
  }
}

@Command({ name: 'ask', description: 'Asks the model' })
class AskCommand {
  constructor(@Inject(MODEL) private readonly model: Model) {}

  run(_ctx: CommandContext) {
    return this.model.complete('command');
  }
}

const production: Model = {
  complete: () => Promise.reject(new Error('the test must not call the real model')),
};
const bot = defineBot({
  handlers: [AskListener, Summarize, AskCommand],
  providers: [{ provide: MODEL, useValue: production }],
});

describe('injection tokens (issue 42)', () => {
  it("a test replaces the definition's model, an interface, by a fake given for its token", async () => {
    const fake: Model = { complete: (prompt) => Promise.resolve(`fake: ${prompt}`) };
    const platform = await createTestPlatform({ bot, providers: [{ provide: MODEL, useValue: fake }] });
    try {
      const alice = platform.person('alice');
      const asked = await alice.say('!ask what is 2+2?');
      expect((await platform.bot.nextMessage({ replyTo: asked })).content).toBe('fake: what is 2+2?');
      const sum = await alice.say('!sum a long text');
      expect((await platform.bot.nextMessage({ replyTo: sum })).content).toBe('fake: summarize: a long text');
      expect((await alice.invoke('ask')).content).toBe('fake: command');
    } finally {
      await platform.close();
    }
  });

  it('refuses a token no provider gives, naming it and the fix', async () => {
    const error = await createTestPlatform({ handlers: [AskListener] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BOARDBOT_MISSING_PROVIDER' });
    expect((error as Error).message).toContain("AskListener needs token 'model' (inject())");
    expect((error as Error).message).toContain('{ provide: token, useValue }');
  });

  it('says how to give a listener-only class its providers when no constructor types were recorded', async () => {
    class Greeter {
      hello() {
        return 'hello';
      }
    }
    // Only a method decorator: TypeScript records no constructor types for the class.
    class Plain {
      constructor(readonly greeter: Greeter) {}
      @OnMessage('!hello')
      hello() {
        return this.greeter.hello();
      }
    }
    const error = await createTestPlatform({ handlers: [Plain], providers: [Greeter] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BOARDBOT_MISSING_METADATA' });
    expect((error as Error).message).toContain('method decorators such as @OnMessage do not count');
    expect((error as Error).message).toContain('inject(Token) in a field');
  });

  it('refuses inject() outside the construction of a class the bot builds', () => {
    expect(() => inject(MODEL)).toThrow(expect.objectContaining({ code: 'BOARDBOT_INJECT_OUTSIDE' }));
  });
});
