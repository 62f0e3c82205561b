import { type Checker, checkerFor } from '@boardbot/protocol';
import type { RestClient } from '@boardbot/rest';
import type { Static, TObject } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';

/** A platform id (uuid) argument of a tool, described for the model. */
export const Id = (description: string) => Type.String({ format: 'uuid', description });

/** What a tool call can use: the app's REST client and the server's bounds. */
export interface ToolDeps {
  rest: RestClient;
  /** Most messages a read scans (a thread, a search). */
  maxScan: number;
}

/** What MCP tells an agent of a tool, besides its name and input: hints for the client's prompts. */
export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
}

/**
 * One tool of the server: its name, what it does (the model reads it), its input as a JSON Schema
 * (TypeBox), whether it writes, and what it does with checked arguments.
 */
export interface BoardTool<S extends TObject = TObject> {
  name: string;
  description: string;
  input: S;
  /** Whether it writes on the platform: offered only when the server allows writes. */
  writes: boolean;
  hints: ToolHints;
  /** Runs the call; what it returns is the result the agent reads (as JSON). */
  call(args: Static<S>, deps: ToolDeps): Promise<unknown>;
  /**
   * Rejects a call that could not run whatever a person approves (a command's missing person, a
   * board it cannot run on, invalid options): asked before an approval request is posted.
   * @defaultValue none: nothing is refused before the approval
   */
  check?(args: Static<S>, deps: ToolDeps): Promise<void>;
}

/** A tool, its input's checker compiled once. */
export interface CheckedTool {
  tool: BoardTool;
  checker: Checker<Record<string, unknown>>;
}

/**
 * Declares a tool (typed by its input schema).
 * @param tool - the tool
 */
export function defineTool<S extends TObject>(tool: BoardTool<S>): BoardTool {
  return tool as unknown as BoardTool;
}

/**
 * Compiles each tool's input checker.
 * @param tools - the tools
 */
export function checkedTools(tools: readonly BoardTool[]): Map<string, CheckedTool> {
  return new Map(
    tools.map((tool) => [tool.name, { tool, checker: checkerFor(tool.input) as Checker<Record<string, unknown>> }]),
  );
}
