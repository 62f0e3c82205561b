import type { Message } from '@boardbot/protocol';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPollBot } from '../src/bot.js';

// Each test starts from a fresh platform and makes the poll it needs: none depends on another's votes.
let platform: TestPlatform;
beforeEach(async () => {
  platform = await createTestPlatform({ bot: (base) => createPollBot(base) });
});
afterEach(() => platform?.close());

/** A message's content as the platform has it now (read over the control API). */
async function shown(message: Message, board: string): Promise<string | null> {
  return (await platform.messages(board)).find((m) => m.id === message.id)?.content ?? null;
}

/** Alice's lunch poll on general. */
function lunchPoll(): Promise<Message> {
  return platform.person('alice').invoke('poll create', { question: 'Lunch?', choices: 'Pizza, Sushi, Tacos' });
}

/** The content of the bot's next edit of `poll`. */
async function nextTally(poll: Message): Promise<string | null> {
  return (await platform.bot.nextEdit({ id: poll.id })).content;
}

/** Pizza 1 and Tacos 2: a vote by command, and replies by name and by number. */
async function threeVotes(poll: Message): Promise<void> {
  await platform.person('bob').invoke('poll vote', { choice: 1 });
  expect(await nextTally(poll)).toBe('Pizza 1 · Sushi 0 · Tacos 0 (1 vote)');
  await platform.person('carol').reply(poll, 'tacos');
  expect(await nextTally(poll)).toBe('Pizza 1 · Sushi 0 · Tacos 1 (2 votes)');
  await platform.person('dave').reply(poll, ' 3 ');
  expect(await nextTally(poll)).toBe('Pizza 1 · Sushi 0 · Tacos 2 (3 votes)');
}

describe('a poll on general', () => {
  it('is rendered as an embed with a field per choice, and a tally', async () => {
    const poll = await lunchPoll();
    expect(poll.content).toBe('No votes yet.');
    expect(poll.embeds).toEqual([
      {
        title: '📊 Lunch?',
        description: 'Started by Alice. Vote with /poll vote, or reply to this message with a number.',
        color: '#5865F2',
        fields: [
          { name: '1. Pizza', value: '/poll vote choice:1', inline: true },
          { name: '2. Sushi', value: '/poll vote choice:2', inline: true },
          { name: '3. Tacos', value: '/poll vote choice:3', inline: true },
        ],
      },
    ]);
  });

  it('counts a /poll vote and edits its own poll message', async () => {
    const poll = await lunchPoll();
    const answer = await platform.person('bob').invoke('poll vote', { choice: 2 });
    expect(answer.content).toBe('You voted for Sushi.');
    const edited = await platform.bot.nextEdit({ id: poll.id });
    expect(edited.content).toBe('Pizza 0 · Sushi 1 · Tacos 0 (1 vote)');
    expect(edited.embeds).toEqual(poll.embeds);
  });

  it('keeps one vote per person: voting again moves it', async () => {
    const poll = await lunchPoll();
    await platform.person('bob').invoke('poll vote', { choice: 2 });
    expect(await nextTally(poll)).toBe('Pizza 0 · Sushi 1 · Tacos 0 (1 vote)');
    await platform.person('bob').invoke('poll vote', { choice: 1 });
    expect(await nextTally(poll)).toBe('Pizza 1 · Sushi 0 · Tacos 0 (1 vote)');
  });

  it('counts a reply to the poll message, by number or by name', async () => {
    const poll = await lunchPoll();
    await platform.person('carol').reply(poll, 'tacos');
    expect(await nextTally(poll)).toBe('Pizza 0 · Sushi 0 · Tacos 1 (1 vote)');
    await platform.person('dave').reply(poll, ' 3 ');
    expect(await nextTally(poll)).toBe('Pizza 0 · Sushi 0 · Tacos 2 (2 votes)');
  });

  it('ignores replies that name no choice, and says nothing', async () => {
    const poll = await lunchPoll();
    await platform.settle();
    const before = platform.bot.messages().length;
    await platform.person('carol').reply(poll, 'what about curry?');
    await platform.person('carol').reply(poll, '7');
    await platform.settle();
    expect(platform.bot.messages()).toHaveLength(before);
    expect(await shown(poll, 'general')).toBe('No votes yet.');
  });

  it('refuses a choice the poll does not have', async () => {
    await lunchPoll();
    const answer = await platform.person('bob').invoke('poll vote', { choice: 5 });
    expect(answer.content).toBe('There is no choice 5: pick 1 to 3.');
  });

  it('allows one open poll per board', async () => {
    await lunchPoll();
    const answer = await platform.person('bob').invoke('poll create', { question: 'Dinner?', choices: 'Soup, Salad' });
    expect(answer.content).toBe('A poll is already open on this board: close it first with /poll close.');
  });

  it('is closed by whoever started it, with the results', async () => {
    const poll = await lunchPoll();
    await threeVotes(poll);
    const refused = await platform.person('bob').invoke('poll close');
    expect(refused.content).toBe('Only Alice, who started the poll, can close it.');

    const results = await platform.person('alice').invoke('poll close');
    expect(results.content).toBe('🔒 Closed: Tacos wins with 2 of 3 votes.');
    expect(results.embeds?.[0]?.fields).toEqual([
      { name: 'Pizza', value: '███ 1 vote (33%)' },
      { name: 'Sushi', value: '· 0 votes (0%)' },
      { name: 'Tacos', value: '███████ 2 votes (67%)' },
    ]);
    expect(await nextTally(poll)).toBe('🔒 Closed: Tacos wins with 2 of 3 votes.');
  });

  it('takes no vote once closed', async () => {
    await lunchPoll();
    await platform.person('alice').invoke('poll close');
    const answer = await platform.person('bob').invoke('poll vote', { choice: 1 });
    expect(answer.content).toBe('There is no open poll on this board. Start one with /poll create.');
  });
});

describe('a poll on random', () => {
  it('explains choices it cannot use', async () => {
    const alice = platform.person('alice');
    const one = await alice.invoke('poll create', { question: 'Yes?', choices: 'Yes, yes, YES' }, { board: 'random' });
    expect(one.content).toBe('A poll needs 2 to 10 different choices, separated by commas (Pizza, Sushi).');
  });

  it('shows every vote when many arrive at once', async () => {
    const poll = await platform
      .person('alice')
      .invoke('poll create', { question: 'Tabs or spaces?', choices: 'Tabs, Spaces' }, { board: 'random' });
    const voters = ['v1', 'v2', 'v3', 'v4', 'v5', 'v6'];
    await Promise.all(
      voters.map((name, i) => platform.person(name).invoke('poll vote', { choice: (i % 2) + 1 }, { board: 'random' })),
    );
    await platform.settle();
    // Edits run one after the other, each showing the poll as it is then: the last one has every vote.
    expect(platform.bot.messages({ id: poll.id })[0]?.content).toBe('Tabs 3 · Spaces 3 (6 votes)');
    const closed = await platform.person('alice').invoke('poll close', {}, { board: 'random' });
    expect(closed.content).toBe('🔒 Closed: a tie between Tabs and Spaces (3 votes each).');
  });
});
