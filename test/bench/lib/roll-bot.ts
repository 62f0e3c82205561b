import { Command, type CommandContext, Option } from '@boardbot/core';
import { IsInt, Max, Min } from 'class-validator';
import { type ChildServer, serveInChild } from './child-server.js';

/** The admin key of the emulators the interaction benches start. */
export const BENCH_ADMIN_KEY = 'bench-admin-key';

/** Starts an emulator in a child process (in memory, no rate limit) with {@link BENCH_ADMIN_KEY}. */
export function startBenchEmulator(): Promise<ChildServer> {
  return serveInChild(`
    import { createEmulator } from './packages/emulator/dist/index.js';
    const emu = await createEmulator({ db: ':memory:', logger: false, adminKey: '${BENCH_ADMIN_KEY}', rateLimit: { requests: 1e9 } });
    const { url } = await emu.listen({ port: 0 });
    console.log(JSON.stringify({ url }));`);
}

/** The options of `/roll`. */
export class RollOptions {
  @Option({ description: 'Sides' }) @IsInt() @Min(2) @Max(1000) sides!: number;
}

/** `/roll sides:<n>`: the command the interaction benches invoke and the bot answers. */
@Command({ name: 'roll', description: 'Roll a die', options: RollOptions })
export class Roll {
  run(_ctx: CommandContext<RollOptions>, { sides }: RollOptions) {
    return `You rolled ${sides}`;
  }
}

/**
 * Starts a @boardbot/core bot answering `/roll` in a child process (built code, so its CPU is its own
 * and `BOARDBOT_BENCH_CPU_PROF` profiles it apart from the load generator). Resolves once it is
 * connected. Needs `buildPackages('core')`.
 */
export function startBenchBot(apiUrl: string): Promise<ChildServer> {
  // The same command as {@link Roll}, decorated by hand: plain node runs no TypeScript decorators.
  return serveInChild(`
    import { Command, Option, createBot } from './packages/core/dist/index.js';
    import { IsInt, Max, Min } from 'class-validator';
    class RollOptions {}
    for (const d of [Reflect.metadata('design:type', Number), Max(1000), Min(2), IsInt(), Option({ description: 'Sides' })]) d(RollOptions.prototype, 'sides');
    class Roll { run(_ctx, { sides }) { return 'You rolled ' + sides; } }
    Command({ name: 'roll', description: 'Roll a die', options: RollOptions })(Roll);
    const bot = createBot({ token: 'dev-token', apiUrl: ${JSON.stringify(apiUrl)}, handlers: [Roll], logger: false, handleSignals: false });
    await bot.start();
    console.log(JSON.stringify({ url: ${JSON.stringify(apiUrl)} }));`);
}
