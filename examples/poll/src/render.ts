import type { Embed } from '@boardbot/protocol';
import { countVotes, type Poll } from './poll.js';

const COLOR = '#5865F2';

const votes = (n: number) => `${n} vote${n === 1 ? '' : 's'}`;

/** The poll's embed: the question, and one field per choice saying how to vote for it. */
export function pollEmbed(poll: Poll): Embed {
  return {
    title: `📊 ${poll.question}`,
    description: `Started by ${poll.ownerName}. Vote with /poll vote, or reply to this message with a number.`,
    color: COLOR,
    fields: poll.choices.map((c, i) => ({ name: `${i + 1}. ${c}`, value: `/poll vote choice:${i + 1}`, inline: true })),
  };
}

/**
 * The poll message's text: the live tally. Only `content` can be edited on the platform, so this
 * is the part that changes as votes come in.
 */
export function tally(poll: Poll): string {
  const counts = countVotes(poll);
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return 'No votes yet.';
  return `${poll.choices.map((c, i) => `${c} ${counts[i]}`).join(' · ')} (${votes(total)})`;
}

/** The poll message's text once closed: the winner, a tie, or no votes. */
export function verdict(poll: Poll): string {
  const counts = countVotes(poll);
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return '🔒 Closed with no votes.';
  const best = Math.max(...counts);
  const winners = poll.choices.filter((_, i) => counts[i] === best);
  if (winners.length > 1) return `🔒 Closed: a tie between ${winners.join(' and ')} (${votes(best)} each).`;
  return `🔒 Closed: ${winners[0]} wins with ${best} of ${votes(total)}.`;
}

/** The results embed posted when the poll closes: a bar per choice. */
export function resultsEmbed(poll: Poll): Embed {
  const counts = countVotes(poll);
  const total = counts.reduce((a, b) => a + b, 0);
  return {
    title: `Results: ${poll.question}`,
    color: COLOR,
    fields: poll.choices.map((c, i) => {
      const n = counts[i] ?? 0;
      const share = total === 0 ? 0 : Math.round((n / total) * 100);
      return { name: c, value: `${'█'.repeat(Math.round(share / 10)) || '·'} ${votes(n)} (${share}%)` };
    }),
  };
}
