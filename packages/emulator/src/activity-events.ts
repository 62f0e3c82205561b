/**
 * Event names of the control API's activity stream (docs/control-api.md "Activity stream"), `ready`
 * first. The playground page imports this file directly (it has no imports, so it bundles for the
 * browser), the testing harness imports it from the package: one list for the emitter and its readers.
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
