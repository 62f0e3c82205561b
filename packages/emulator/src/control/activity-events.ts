/**
 * Event names of the control API's activity stream (docs/control-api.md "Activity stream"), `ready`
 * first. One list for the emitter (the server) and its readers (the control client's activity stream,
 * the testing harness, the playground).
 */
export const ACTIVITY_EVENTS = [
  'ready',
  'message.create',
  'message.edit',
  'message.delete',
  'interaction.create',
  'interaction.update',
  'commands.update',
  'state.update',
  'reset',
] as const;

/** A name of an activity stream event. */
export type ActivityEventName = (typeof ACTIVITY_EVENTS)[number];
