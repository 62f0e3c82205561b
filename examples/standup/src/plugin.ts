import { definePlugin } from '@boardbot/core';
import { AwayCommand } from './away-command.js';
import { Reminder } from './reminder.js';
import { StandupCommand } from './standup-command.js';
import { StandupConfig } from './standup-config.js';
import { StandupUpdate, StartUpdate } from './standup-update.js';

/** Options of the standup plugin. */
export interface StandupOptions {
  /**
   * The morning message.
   * @defaultValue `'Standup time! Write !standup to give your update.'`
   */
  reminder?: string;
}

/**
 * The whole standup feature as a plugin, so any bot can add it with one line:
 * `createBot({ plugins: [standup()] })`.
 */
export const standup = definePlugin((options: StandupOptions = {}) => ({
  name: 'boardbot-plugin-standup',
  handlers: [StandupCommand, AwayCommand, StartUpdate, StandupUpdate.listener, Reminder],
  providers: [
    {
      provide: StandupConfig,
      useValue: new StandupConfig(options.reminder ?? 'Standup time! Write !standup to give your update.'),
    },
  ],
  onStart: ({ log }) => log.info('standup plugin ready: weekdays at 9:00, Europe/Berlin'),
}));
