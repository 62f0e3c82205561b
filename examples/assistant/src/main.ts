// The assistant as a process. The model is chosen by one line: here OpenAI's through its AI SDK
// provider (`npm install @ai-sdk/openai`, OPENAI_API_KEY); any AI SDK provider fits.
import { createBot } from '@boardbot/core';
import type { LanguageModel } from 'ai';
import { assistantOf } from './assistant.js';
import { pinnerOf } from './pinner.js';

const provider = process.env.ASSISTANT_PROVIDER ?? '@ai-sdk/openai';
const { openai } = (await import(provider)) as { openai: (id: string) => LanguageModel };
const model = openai(process.env.ASSISTANT_MODEL ?? 'gpt-4o-mini');

const pinner = pinnerOf(model);
const bot = createBot({
  token: process.env.BOARDBOT_TOKEN ?? '',
  handlers: [assistantOf(model), pinner.handler],
  plugins: [pinner.plugin],
});
await bot.start();
