import { checkerFor, messageBodyIssues, SendMessageBody } from '@boardbot/protocol';
import { it } from 'vitest';
import { opsPerSecond } from './lib/measure.js';
import { record } from './lib/record.js';

// Validating a send body sits on the emulator's hot path; the baseline is the JSON.parse that every
// request pays anyway.
it('validates send bodies close to the cost of parsing them', async () => {
  const text = JSON.stringify({
    content: 'You rolled 17',
    embeds: [{ title: 'Dice', color: '#22aa88', fields: [{ name: 'sides', value: '20', inline: true }] }],
  });
  const checker = checkerFor(SendMessageBody);
  const parse = await opsPerSecond(() => JSON.parse(text));
  const validate = await opsPerSecond(() => {
    const body = JSON.parse(text);
    return checker.is(body) && messageBodyIssues(body).length === 0;
  });
  record(
    { bench: 'protocol: send body', subject: 'JSON.parse only (baseline)', value: parse, unit: 'ops/s', ratio: 1 },
    {
      bench: 'protocol: send body',
      subject: 'parse + schema + rules',
      value: validate,
      unit: 'ops/s',
      ratio: validate / parse,
    },
  );
});
