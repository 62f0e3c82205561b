import type { LeafOption } from '@boardbot/protocol';
import { LIMITS } from '@boardbot/protocol/runtime';
import type { CommandDescription } from '../commands/describe.js';
import type { DerivedOption } from '../commands/options/derive-options.js';
import { routeKey } from '../commands/route-key.js';
import type { ResolvedTextCommandOptions } from './options.js';

/** One command or subcommand as help shows it. */
interface Entry {
  key: string;
  command: string;
  description: string;
  text: boolean;
  /** In the order of the options class (a text invocation's positional order). */
  options: DerivedOption[];
}

/**
 * The bot's commands and their options, read from the derived schema, as the generated `help`
 * lists them: the registered commands, and how to type each one as text when it can be.
 */
export class CommandCatalogue {
  private readonly entries: Entry[];

  /**
   * @param described - the bot's commands, as the explorer described them
   * @param text - the bot's text command options (prefix, `all`)
   */
  constructor(
    described: readonly CommandDescription[],
    private readonly text: ResolvedTextCommandOptions,
  ) {
    this.entries = described.flatMap((d) =>
      d.routes.map((route): Entry => {
        const sub = d.definition.options?.find((o) => o.type === 'subcommand' && o.name === route.subcommand);
        return {
          key: routeKey(route.command, route.subcommand),
          command: route.command,
          description: sub?.description ?? d.definition.description,
          text: route.text ?? text.all,
          options: [...route.options].sort((a, b) => a.position - b.position),
        };
      }),
    );
  }

  /**
   * The help text: every command on a line, or one command (or all its subcommands) with its options.
   * @param command - a command's name, or none for the list
   */
  help(command?: string): string {
    let wanted = command?.trim().toLowerCase() ?? '';
    if (wanted.startsWith('/')) wanted = wanted.slice(1);
    else if (wanted.startsWith(this.text.prefix)) wanted = wanted.slice(this.text.prefix.length);
    if (!wanted) {
      const footer = this.entries.some((e) => e.text)
        ? `Type ${this.text.prefix}help <command> to see its options.`
        : 'Use help with a command name to see its options.';
      return fit(['Commands:', ...this.entries.map((e) => this.usage(e))], footer);
    }
    const found = this.entries.filter((e) => e.command === wanted || e.key === wanted);
    if (found.length === 0) {
      const names = [...new Set(this.entries.map((e) => e.command))].join(', ');
      return `There is no command "${wanted}". The commands are: ${names}.`;
    }
    return fit(
      found.flatMap((e) => [this.usage(e), ...e.options.map((o) => `- ${describe(o.option, o.rest)}`)]),
      '',
    );
  }

  /** `/roll, !roll <reason> [sides]: Roll dice`. */
  private usage(e: Entry): string {
    const args = e.options.map(({ option, rest }) => {
      const name = rest ? `${option.name}...` : option.name;
      return option.required ? `<${name}>` : `[${name}]`;
    });
    const typed = e.text ? `, ${[`${this.text.prefix}${e.key}`, ...args].join(' ')}` : '';
    return `/${e.key}${typed}: ${e.description}`;
  }
}

/** `sides (integer, 2 to 1000): Sides on the die`. */
function describe(o: LeafOption, rest: boolean): string {
  const facts: string[] = [o.type];
  if (o.required) facts.push('required');
  if (o.min_value !== undefined || o.max_value !== undefined) facts.push(range(o.min_value, o.max_value, ''));
  if (o.min_length !== undefined || o.max_length !== undefined)
    facts.push(range(o.min_length, o.max_length, ' characters'));
  if (o.choices) facts.push(`one of ${o.choices.map((c) => String(c.value)).join(', ')}`);
  if (rest) facts.push('takes the rest of the line');
  return `${o.name} (${facts.join(', ')}): ${o.description}`;
}

function range(low: number | undefined, high: number | undefined, unit: string): string {
  if (low !== undefined && high !== undefined) return `${low} to ${high}${unit}`;
  return low !== undefined ? `at least ${low}${unit}` : `at most ${high}${unit}`;
}

/** Joins the lines under the platform's content limit, saying how many were left out. */
function fit(lines: readonly string[], footer: string): string {
  const max = LIMITS.contentLength - 60;
  const kept: string[] = [];
  let length = footer.length;
  for (const line of lines) {
    if (length + line.length + 1 > max) {
      kept.push(`… and ${lines.length - kept.length} more`);
      break;
    }
    kept.push(line);
    length += line.length + 1;
  }
  return [...kept, ...(footer ? [footer] : [])].join('\n');
}
