import { Command } from '../commands/command.js';
import type { CommandContext } from '../commands/context.js';
import { Option } from '../commands/option.js';
import { IsOptional } from '../kernel/class-validator.js';
import { SESSION_STORE } from '../sessions/service.js';
import { changeValue, readValue } from '../sessions/store-values.js';
import { type AgentRuntime, agentsOf, botNow, servicesOf } from './agent-runtime.js';
import { answerRequest, mayApprove } from './approval-decision.js';
import type { ApprovalRecord } from './approval-store.js';
import { type ApprovalAnswer, approvalAnswer } from './approval-words.js';

/** The options of `/approve` and `/deny`. */
export class DecideOptions {
  /** The request's code (or id); none: the newest pending one on the board the person may decide. */
  @Option({ description: "The request's code, shown in it (default: the newest you may decide here)", type: 'string' })
  @IsOptional()
  request?: string;
}

/** A request found, with its agent. */
interface Found {
  agent: AgentRuntime;
  record: ApprovalRecord;
}

/** How long the request an invocation chose is kept, for the invocation handled again. */
const CHOSEN_MS = 24 * 3_600_000;

/** The pending requests of the board, of every agent of the bot, newest first. */
async function pendingOn(ctx: CommandContext): Promise<Found[]> {
  const found: Found[] = [];
  for (const agent of agentsOf(ctx)) {
    const store = agent.store(ctx);
    for (const id of await store.ids()) {
      const record = await store.get(id);
      if (record?.status === 'pending' && record.boardId === ctx.boardId) found.push({ agent, record });
    }
  }
  return found.sort((a, b) => b.record.askedAt - a.record.askedAt);
}

/**
 * The request an invocation answers: the one it chose when it was first handled (so the invocation
 * handled again, after a crash, resumes the same turn), else the one it names, else the newest
 * pending one on the board that the person may decide.
 */
async function chosen(ctx: CommandContext, by: string, named: string | undefined): Promise<Found | 'none'> {
  const sessions = ctx.session(servicesOf).get(SESSION_STORE);
  const now = () => ctx.session(botNow);
  const key = `agents:approval-command:${by}`;
  let pick = (await readValue<{ agent: string; id: string }>(sessions, key, now())).value;
  if (pick === undefined) {
    let found: Found | undefined;
    const code = named?.trim();
    if (code) {
      for (const agent of agentsOf(ctx)) {
        const record = await agent.store(ctx).named(code);
        if (record?.boardId === ctx.boardId) found = { agent, record };
      }
    } else {
      for (const candidate of await pendingOn(ctx)) {
        if (await mayApprove(ctx, candidate.agent.options, candidate.record)) {
          found = candidate;
          break;
        }
      }
    }
    if (found === undefined) return 'none';
    pick = { agent: found.agent.options.name, id: found.record.id };
    const first = pick;
    await changeValue(
      sessions,
      key,
      (c) => c ?? first,
      () => now() + CHOSEN_MS,
      now,
    );
  }
  const agent = agentsOf(ctx).find((a) => a.options.name === pick?.agent);
  const record = await agent?.store(ctx).get(pick.id);
  return agent && record ? { agent, record } : 'none';
}

/**
 * Answers a pending request by a command, as a reply would (`answerRequest`): only an approver
 * counts, the first answer decides. The resumed turn answers through the command; anything else is
 * said in the person's language (`boardbot:approvalNone`, `approvalNotYours`, `approvalDecided`).
 * A text invocation that replies to a request with the bare word (`!approve`) is that reply's
 * answer (the reply words take it): the command says nothing.
 */
async function decideByCommand(
  ctx: CommandContext,
  answer: ApprovalAnswer,
  named: string | undefined,
): Promise<string | undefined> {
  if (ctx.via === 'text' && ctx.message.reply_to !== null && approvalAnswer(ctx.message.content) !== undefined) {
    for (const agent of agentsOf(ctx)) if (await agent.store(ctx).get(ctx.message.reply_to)) return undefined;
  }
  const by = `command:${ctx.via === 'slash' ? ctx.interaction.id : ctx.message.id}`;
  const found = await chosen(ctx, by, named);
  if (found === 'none') return ctx.t('boardbot:approvalNone');
  const outcome = await answerRequest(ctx, found.agent, found.record, { by, who: ctx.user.id, answer });
  if (outcome === 'refused') return ctx.t('boardbot:approvalNotYours');
  if (outcome === 'approved' || outcome === 'denied') return undefined;
  return ctx.t('boardbot:approvalDecided');
}

/** `/approve [request]` and `!approve [request]`: approves a pending request of an agent. */
@Command({
  name: 'approve',
  description: "Approves an assistant's pending request",
  options: DecideOptions,
  text: true,
})
export class ApproveCommand {
  /** Approves the named request, or the newest the person may decide on the board. */
  run(ctx: CommandContext, { request }: DecideOptions): Promise<string | undefined> {
    return decideByCommand(ctx, 'approve', request);
  }
}

/** `/deny [request]` and `!deny [request]`: denies a pending request of an agent. */
@Command({ name: 'deny', description: "Denies an assistant's pending request", options: DecideOptions, text: true })
export class DenyCommand {
  /** Denies the named request, or the newest the person may decide on the board. */
  run(ctx: CommandContext, { request }: DecideOptions): Promise<string | undefined> {
    return decideByCommand(ctx, 'deny', request);
  }
}
