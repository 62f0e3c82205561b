/** What the plugin's options set, injected where it is needed. */
export class StandupConfig {
  /** @param reminder - the morning message */
  constructor(readonly reminder: string) {}
}
