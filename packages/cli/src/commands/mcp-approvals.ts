import type * as CoreAgents from '@boardbot/core/agents';
import type { McpApproval } from '@boardbot/mcp';
import type { RestClient } from '@boardbot/rest';
import { ConfigError } from '../errors.js';
import { importFromProject } from '../project/project-modules.js';

const ROLES = ['owner', 'admin', 'member'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The approvers `--approve-by` names: user ids and roles, comma-separated (`admin`,
 * `<user id>,<user id>`).
 * @param value - the flag's value
 * @throws ConfigError for an entry that is neither
 */
export function parseApprovers(value: string): CoreAgents.OutsideApprovers {
  const users: string[] = [];
  const roles: (typeof ROLES)[number][] = [];
  for (const entry of value.split(',').map((e) => e.trim())) {
    if (UUID.test(entry)) users.push(entry);
    else if ((ROLES as readonly string[]).includes(entry)) roles.push(entry as (typeof ROLES)[number]);
    else {
      throw new ConfigError(
        `--approve-by takes user ids and roles (owner, admin, member), comma-separated; ${JSON.stringify(entry.slice(0, 40))} is neither.`,
      );
    }
  }
  return { users, roles };
}

/**
 * `--approve-by`: every write of `boardbot mcp` waits for one of these people's answer on its board
 * (core's `boardApproval`, the agents' approval words), through the server's client.
 * @param value - the flag's value
 * @param projectDir - where `@boardbot/core` resolves (the project's copy, else the CLI's)
 * @param rest - the server's client
 */
export async function approvalOf(value: string, projectDir: string, rest: RestClient): Promise<McpApproval> {
  const approvers = parseApprovers(value);
  const { boardApproval } = await importFromProject<typeof CoreAgents>(
    projectDir,
    '@boardbot/core/agents',
    () => import('@boardbot/core/agents'),
  );
  return boardApproval(rest, { approvers });
}
