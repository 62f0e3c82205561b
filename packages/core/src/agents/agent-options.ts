import type { LanguageModel, ToolSet } from 'ai';
import type { MessageContext } from '../listeners/context.js';

/**
 * Who may answer an approval request. Anyone else's answer is ignored (logged, not counted).
 */
export interface Approvers {
  /** Whether the person who asked may approve. @defaultValue true */
  asker?: boolean;
  /** Board roles whose members may approve (`'admin'` also admits owners). @defaultValue none */
  roles?: readonly ('owner' | 'admin' | 'member')[];
  /** User ids who may approve. @defaultValue none */
  users?: readonly string[];
}

/** Options of {@link defineAgent}. */
export interface AgentOptions {
  /** Names the agent in its store keys, logs and metrics; one agent of each name per bot. */
  name: string;
  /** The AI SDK language model (a hosted one, or the SDK's mock in tests). */
  model: LanguageModel;
  /** What the model is told before the thread. @defaultValue none */
  system?: string;
  /**
   * The turn's tools, built for the asking person: on the asking message's context, and, when a turn
   * resumes after an approval, on that message's context again (its author, board and locale as
   * asked), inside the approving run. So `commandTools(ctx)` run as the asker whoever approved: their
   * roles and cooldowns, checked when the command runs. A turn begun by a command builds them on
   * the invoking person's message context (a slash invocation's: a stand-in message, not on the
   * board). A tool with `needsApproval` waits for an approver before it runs.
   * @param ctx - the asking message's context
   */
  tools?: (ctx: MessageContext) => ToolSet | Promise<ToolSet>;
  /** Who may approve. @defaultValue `{ asker: true }` */
  approvers?: Approvers;
  /** How long a request waits for an answer; past it, the tool call is denied. @defaultValue 15 minutes */
  approvalTimeoutMs?: number;
  /** Most model steps of one call of the model (a step is one answer of the model). @defaultValue 5 */
  maxSteps?: number;
  /** Most tool calls of a turn (each call past it is the tool's error). @defaultValue 10 */
  maxToolCalls?: number;
  /** Most turns one person may start per minute, per agent, across replicas. @defaultValue 6 */
  turnsPerMinute?: number;
  /**
   * The status line shown while a tool runs, before the answer's text replaces it; false: none.
   * @defaultValue `(tool) => \`${tool}…\``
   */
  progress?: false | ((toolName: string) => string);
}

/** The defaults of {@link AgentOptions}. */
export const DEFAULT_AGENT_OPTIONS = {
  approvers: { asker: true },
  approvalTimeoutMs: 15 * 60_000,
  maxSteps: 5,
  maxToolCalls: 10,
  turnsPerMinute: 6,
  progress: (toolName: string) => `${toolName}…`,
} as const satisfies Omit<Required<AgentOptions>, 'name' | 'model' | 'system' | 'tools'>;

/** An agent's options with their defaults. */
export type ResolvedAgentOptions = AgentOptions & Required<Omit<AgentOptions, 'system' | 'tools'>>;
