import { TEXT_COMMANDS } from '../editable/answer-link.js';
import { type ResolvedTextCommandOptions, textEditable } from '../text-commands/options.js';
import { textCommandTable } from '../text-commands/text-table.js';
import type { Routes } from './routes.js';

/**
 * The link owners whose answers are deleted with their message: the text commands when an editable
 * one says so (they share one link, and one `deleteWithMessage`: the bot's), and each editable
 * listener that does.
 * @param routes - the bot's routes
 * @param text - the bot's text command options
 */
export function deletedWithMessage(routes: Routes, text: ResolvedTextCommandOptions): string[] {
  const owners: string[] = [];
  const table = textCommandTable(routes.commands, text.all, textEditable(text));
  if ([...table.values()].some((entry) => entry.editable?.deleteWithMessage)) owners.push(TEXT_COMMANDS);
  for (const target of routes.messages['message.create']) {
    if (target.listener.editable?.deleteWithMessage) owners.push(target.label);
  }
  return owners;
}
