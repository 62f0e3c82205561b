import type { Logger } from '@boardbot/protocol';
import { metrics } from '@opentelemetry/api';
import type { ToolSet } from 'ai';
import { AgentBoundError } from '../errors.js';
import type { TurnWrites } from './turn-writes.js';

// The OpenTelemetry API's meter: counts nothing until the app registers a meter provider.
const meter = metrics.getMeter('@boardbot/core/agents');
/** Tool calls of agents' turns, by agent, tool and outcome (`ok`, `error`, `bound`, `recorded`). */
export const toolCallCounter = meter.createCounter('boardbot_agent_tool_calls', {
  description: "Tool calls of agents' turns, by agent, tool and outcome",
});

/** What a turn's tools share: the calls so far (across its resumptions) and who watches them. */
export interface ToolTurn {
  /** The agent's name. */
  agent: string;
  /** Tool calls of the turn so far. */
  calls: number;
  /** The bound on them. */
  maxCalls: number;
  log: Logger;
  /** Told each call as it starts (the progress line). */
  onCall?: (toolName: string) => void;
  /** The record of the turn's calls: a call recorded at its place is not run again. */
  writes?: TurnWrites;
}

/**
 * The turn's tools, each call logged (tool, outcome) and counted, and refused to the model as the
 * tool's error past the turn's bound (`BOARDBOT_AGENT_BOUND`). A call the turn's record holds at its
 * place (the turn run again) gives its recorded result without running. A tool without `execute` is
 * left as is.
 * @param tools - the turn's tools
 * @param turn - the turn's count, bound and log
 */
export function auditedTools(tools: ToolSet, turn: ToolTurn): ToolSet {
  const audited: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute;
    if (!execute) {
      audited[name] = tool;
      continue;
    }
    audited[name] = {
      ...tool,
      execute: async (input: unknown, options: Parameters<typeof execute>[1]) => {
        const attrs = { agent: turn.agent, tool: name };
        if (++turn.calls > turn.maxCalls) {
          toolCallCounter.add(1, { ...attrs, outcome: 'bound' });
          turn.log.warn({ ...attrs, outcome: 'bound' }, 'agent tool call refused: the turn reached maxToolCalls');
          throw new AgentBoundError('maxToolCalls', turn.maxCalls);
        }
        const place = turn.calls - 1;
        turn.onCall?.(name);
        const done = await turn.writes?.done(place, name, input);
        if (done) {
          toolCallCounter.add(1, { ...attrs, outcome: 'recorded' });
          turn.log.info({ ...attrs, outcome: 'recorded', input }, 'agent tool call already made: its recorded result');
          return done.output;
        }
        try {
          const result = await execute(input, options);
          await turn.writes?.record(place, name, input, result);
          toolCallCounter.add(1, { ...attrs, outcome: 'ok' });
          turn.log.info({ ...attrs, outcome: 'ok', input }, 'agent tool call');
          return result;
        } catch (error) {
          toolCallCounter.add(1, { ...attrs, outcome: 'error' });
          turn.log.info({ ...attrs, outcome: 'error', input, err: error }, 'agent tool call failed');
          throw error;
        }
      },
    } as ToolSet[string];
  }
  return audited;
}
