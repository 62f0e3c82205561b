import { Command, type CommandContext, defineBot, type HostedAppDefinition } from '@boardbot/core';

/** Shared by both apps: each run answers as its own app (`ctx.app`). */
@Command({ name: 'hello', description: 'Says which app answers' })
export class Hello {
  run(ctx: CommandContext) {
    return ctx.reply(`Hello from ${ctx.app.name}`);
  }
}

/** Only the support team's app has it. */
@Command({ name: 'ticket', description: 'Opens a support ticket' })
export class Ticket {
  run(ctx: CommandContext) {
    return ctx.reply(`Ticket opened for <@${ctx.user.id}>`);
  }
}

/** The sales team's app: `/hello`. */
export const sales = defineBot({ handlers: [Hello] });
/** The support team's app: `/hello` and `/ticket`. */
export const support = defineBot({ handlers: [Hello, Ticket] });

/**
 * The two apps, each with its token in its own environment variable (never in a file).
 * @param options - options every app gets (a test's emulator URL)
 */
export function teamApps(options: HostedAppDefinition['options'] = {}): HostedAppDefinition[] {
  return [
    { id: 'sales', bot: sales, token: { env: 'SALES_BOT_TOKEN' }, options },
    { id: 'support', bot: support, token: { env: 'SUPPORT_BOT_TOKEN' }, options },
  ];
}
