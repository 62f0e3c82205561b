import { Command, type CommandContext, Option } from '@boardbot/core';
import { IsBoolean, IsOptional, IsString, Length } from 'class-validator';

/**
 * The options of /greet. Each `@Option` property becomes an option of the slash command; its type
 * and its validators (`@Length`, `@IsOptional`, a default value) become the option's rules, and the
 * same class checks every invocation.
 */
export class GreetOptions {
  @Option({ description: 'Who to greet' })
  @IsString()
  @Length(1, 32)
  name!: string;

  @Option({ description: 'Shout the greeting' })
  @IsOptional()
  @IsBoolean()
  shout = false;
}

/** `/greet name:<text> [shout:<true|false>]`: says hello. */
@Command({ name: 'greet', description: 'Greets someone by name', options: GreetOptions })
export class Greet {
  run(_ctx: CommandContext<GreetOptions>, { name, shout }: GreetOptions) {
    const text = `Hello, ${name}!`;
    // Returning a string replies with it.
    return shout ? text.toUpperCase() : text;
  }
}
