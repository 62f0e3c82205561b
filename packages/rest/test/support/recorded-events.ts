import type { RestClient, RestEvents } from '@boardbot/rest';

/**
 * The `name` events `client` emits from now on, in order: an array the test reads after the calls.
 * @param client - the client to listen to
 * @param name - the event (`retry`, `rateLimited`, `response`)
 */
export function recordedEvents<K extends keyof RestEvents>(client: RestClient, name: K): RestEvents[K][] {
  const events: RestEvents[K][] = [];
  client.on(name, (event) => events.push(event));
  return events;
}
