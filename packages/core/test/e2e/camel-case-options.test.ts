import { Command, type CommandContext, Option } from '@boardbot/core';
import { IsInt, IsOptional } from 'class-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPlatform as Platform, TestPlatform } from './support/platform.js';

// docs/commands-and-options.md, "How an option is derived": a camelCase property is registered under
// its snake_case name, and the handler still reads the camelCase property; an explicit name wins.

class TodoOptions {
  @Option({ description: 'What to do' }) title!: string;
  @Option({ description: 'When it is due' }) dueDate!: string;
  @Option({ description: 'Priority', name: 'prio' }) @IsOptional() @IsInt() priorityLevel = 1;
}

@Command({ name: 'todo', description: 'Adds a todo', options: TodoOptions })
class Todo {
  run(ctx: CommandContext<TodoOptions>, { title, dueDate, priorityLevel }: TodoOptions) {
    return `${title} due ${dueDate} at ${priorityLevel} (${ctx.options.dueDate})`;
  }
}

describe('camelCase option properties', () => {
  let platform: Platform;
  let started: ReturnType<Platform['bot']>;
  beforeAll(async () => {
    platform = await TestPlatform.start();
    started = platform.bot({ handlers: [Todo] });
    await started.bot.start();
  });
  afterAll(async () => {
    await started?.bot.stop();
    await platform?.close();
  });

  it('registers dueDate as due_date, keeps an explicit name, and hands the handler its properties', async () => {
    const [app] = await platform.control.apps();
    expect(app?.commands[0]?.options?.map((o) => o.name)).toEqual(['title', 'due_date', 'prio']);
    const answer = await platform.ask(platform.bob, platform.general, 'todo', {
      title: 'Ship it',
      due_date: '2026-12-01',
      prio: 3,
    });
    expect(answer).toBe('Ship it due 2026-12-01 at 3 (2026-12-01)');
  });
});
