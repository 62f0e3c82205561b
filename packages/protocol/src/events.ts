/** Names of the gateway events (CONTRACT.md "Gateway"), exactly as they appear on the wire. */
export const GATEWAY_EVENTS = [
  'ready',
  'message.create',
  'message.edit',
  'message.delete',
  'interaction.create',
] as const;

/** A known gateway event name. */
export type GatewayEventName = (typeof GATEWAY_EVENTS)[number];

/** Whether `name` is a gateway event name this version of the protocol knows. */
export function isGatewayEventName(name: string): name is GatewayEventName {
  return (GATEWAY_EVENTS as readonly string[]).includes(name);
}
