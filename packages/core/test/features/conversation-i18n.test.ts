import {
  Command,
  type CommandContext,
  defineConversation,
  type MessageContext,
  OnMessage,
  refuse,
} from '@boardbot/core';
import { i18n, setLocale } from '@boardbot/core/i18n';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/conversations.md, "Questions in each person's language": a question's `ask` is a function of
// `t`, so it is asked in the locale of the person answering (issue 42: a French person was asked in
// English, then answered in French).

const resources = {
  en: {
    translation: {
      signup: {
        name: 'What is your name?',
        age: 'How old are you?',
        number: 'A number, please.',
        cancelled: 'Cancelled.',
      },
      welcome: 'Welcome {{name}} ({{age}})!',
    },
  },
  fr: {
    translation: {
      signup: {
        name: 'Comment vous appelez-vous ?',
        age: 'Quel âge avez-vous ?',
        number: 'Un nombre, svp.',
        cancelled: 'Annulé.',
      },
      welcome: 'Bienvenue {{name}} ({{age}}) !',
    },
    boardbot: { reask: '{{reason}} — {{question}}' },
  },
};

const Signup = defineConversation({
  name: 'signup',
  questions: [
    { ask: (t) => t('signup.name') },
    {
      ask: (t) => t('signup.age'),
      parse: (text) => (/^\d+$/.test(text) ? Number(text) : refuse((t) => t('signup.number'))),
    },
  ],
  done: (ctx, [name, age]) => ctx.t('welcome', { name, age }),
  cancelWords: ['cancel', 'annuler'],
  cancelReply: (t) => t('signup.cancelled'),
});

@Command({ name: 'french', description: 'Speak French to me' })
class French {
  async run(ctx: CommandContext) {
    await setLocale(ctx, 'fr');
    return 'ok';
  }
}

class StartSignup {
  @OnMessage('!signup')
  start(ctx: MessageContext) {
    return ctx.session(Signup).start(ctx.message.id);
  }
}

describe('conversation questions in the locale of the person asked (issue 42)', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    const handlers = [French, StartSignup, Signup.listener];
    platform = await createTestPlatform({ handlers, plugins: [i18n({ resources })] });
  });
  afterAll(() => platform?.close());

  async function conversation(person: string, answers: string[]): Promise<string[]> {
    const who = platform.person(person);
    const said: string[] = [];
    for (const text of ['!signup', ...answers]) {
      const message = await who.say(text);
      said.push((await platform.bot.nextMessage({ replyTo: message })).content ?? '');
    }
    return said;
  }

  it('asks a French person in French and an English one in English, the re-ask and the end too', async () => {
    await platform.person('camille').invoke('french');
    expect(await conversation('camille', ['Camille', 'vingt', '30'])).toEqual([
      'Comment vous appelez-vous ?',
      'Quel âge avez-vous ?',
      'Un nombre, svp. — Quel âge avez-vous ?',
      'Bienvenue Camille (30) !',
    ]);
    expect(await conversation('dan', ['Dan', '41'])).toEqual([
      'What is your name?',
      'How old are you?',
      'Welcome Dan (41)!',
    ]);
    expect(await conversation('camille', ['annuler'])).toEqual(['Comment vous appelez-vous ?', 'Annulé.']);
  });
});
