import { InvalidConfigError } from '../errors.js';
import type { BoardbotEnvironment } from '../kernel/environment.js';
import type { HealthOptions } from './health-options.js';

/**
 * The health endpoint `BOARDBOT_HEALTH_PORT` (and `BOARDBOT_HEALTH_HOST`, `BOARDBOT_HEALTH_ALLOWED_HOSTS`) ask for, as `boardbot start
 * --health-port` sets them; undefined when no port is set.
 * @param env - the environment
 * @throws InvalidConfigError when the port is not a port number
 */
export function healthFromEnv(env: BoardbotEnvironment): HealthOptions | undefined {
  const port = env.BOARDBOT_HEALTH_PORT;
  if (port === undefined || port === '') return undefined;
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
    throw new InvalidConfigError(
      `BOARDBOT_HEALTH_PORT must be a port number from 0 to 65535, got ${JSON.stringify(port.slice(0, 40))}.`,
    );
  }
  const options: HealthOptions = { port: Number(port) };
  const host = env.BOARDBOT_HEALTH_HOST;
  if (host !== undefined && host !== '') options.host = host;
  const allowed = (env.BOARDBOT_HEALTH_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (allowed.length > 0) options.allowedHosts = allowed;
  return options;
}
