// `@boardbot/core/agents`: an assistant's model runs the bot's commands as tools, as the asking
// person. A separate entry point, so that only a bot that imports it loads `ai` (an optional peer
// dependency of @boardbot/core).

// Decorator metadata needs the Reflect API before any decorator runs (the `/approve` command's, and
// the runtime's generated `help`, which openBotCommands loads): loaded here as in the main entry.
import 'reflect-metadata';

export type { AgentOptions, Approvers } from './agents/agent-options.js';
export { DEFAULT_AGENT_OPTIONS } from './agents/agent-options.js';
export { agents } from './agents/agents-plugin.js';
export type { ApprovalRecord, ApprovalStatus, ApprovalToolCall, TurnAsker } from './agents/approval-store.js';
export { APPROVAL_WORDS, type ApprovalAnswer, approvalAnswer } from './agents/approval-words.js';
export {
  type ApprovalAsk,
  type ApprovalOutcome,
  type BoardApprovalOptions,
  boardApproval,
  DEFAULT_BOARD_APPROVAL_OPTIONS,
  type OutsideApprovers,
} from './agents/board-approval.js';
export type { BotCommandInfo } from './agents/command-runs.js';
export {
  type CommandTool,
  type CommandToolInput,
  type CommandToolsOptions,
  commandTools,
} from './agents/command-tools.js';
export {
  type AgentApprovals,
  type AgentDefinition,
  defineAgent,
  type PendingApproval,
} from './agents/define-agent.js';
export { type BoardKitTool, boardTools } from './agents/kit/board-tools.js';
export { type BoardKitOptions, DEFAULT_BOARD_KIT_OPTIONS } from './agents/kit/kit-options.js';
export type { OptionsJsonSchema } from './agents/option-schema.js';
export { type BotCommandCall, type BotCommands, openBotCommands } from './runtime/bot-commands.js';
