import { LIMITS } from './limits.js';
import { openOptionValueIssues } from './open-option-values.js';
import type { ErrorDetail } from './schemas/error-envelope.js';
import type { CommandDefinition, CommandOption, Embed, LeafOption } from './schemas/records.js';

// Rules of the contract that JSON Schema cannot say. Each returns the problems it finds, in the
// `details` shape of a `validation_failed` error; an empty list means the value is acceptable.
// They assume the value already matched its schema.

/** Counts the text of embeds toward the 6,000-character budget of one message. */
export function embedTextLength(embeds: readonly Embed[]): number {
  let total = 0;
  for (const e of embeds) {
    total += (e.title?.length ?? 0) + (e.description?.length ?? 0);
    for (const f of e.fields ?? []) total += f.name.length + f.value.length;
  }
  return total;
}

/** CONTRACT: a message needs a non-empty `content` or a non-empty `embeds`; embed text ≤ 6000. */
export function messageBodyIssues(body: { content?: string; embeds?: Embed[] }): ErrorDetail[] {
  const issues: ErrorDetail[] = [];
  const hasContent = body.content !== undefined && body.content.length > 0;
  const hasEmbeds = body.embeds !== undefined && body.embeds.length > 0;
  if (!hasContent && !hasEmbeds) {
    issues.push({ path: '/', message: 'Expected a non-empty content or at least one embed' });
  }
  body.embeds?.forEach((e, i) => {
    if (Object.keys(e).length === 0) issues.push({ path: `/embeds/${i}`, message: 'Expected a non-empty embed' });
  });
  if (body.embeds && embedTextLength(body.embeds) > LIMITS.embedTotalText) {
    issues.push({
      path: '/embeds',
      message: `Expected at most ${LIMITS.embedTotalText} characters of embed text in all`,
    });
  }
  return issues;
}

function optionIssues(options: readonly (CommandOption | LeafOption)[], at: string): ErrorDetail[] {
  const issues: ErrorDetail[] = [];
  const names = new Set<string>();
  let seenOptional = false;
  const subcommands = options.filter((o) => o.type === 'subcommand').length;
  if (subcommands > 0 && subcommands < options.length) {
    issues.push({ path: at, message: 'Expected either only subcommands or no subcommand on one level' });
  }
  options.forEach((o, i) => {
    const path = `${at}/${i}`;
    if (names.has(o.name)) issues.push({ path: `${path}/name`, message: `Duplicate option name "${o.name}"` });
    names.add(o.name);
    if (o.type !== 'subcommand') {
      if (o.required === false || o.required === undefined) seenOptional = true;
      else if (seenOptional)
        issues.push({ path: `${path}/required`, message: 'Required options must come before optional ones' });
    }
    if ('options' in o && o.options !== undefined && o.type !== 'subcommand') {
      issues.push({ path: `${path}/options`, message: 'Only a subcommand may have options' });
    }
    if (o.min_value !== undefined && o.max_value !== undefined && o.min_value > o.max_value) {
      issues.push({ path: `${path}/min_value`, message: 'Expected min_value ≤ max_value' });
    }
    if (o.min_length !== undefined && o.max_length !== undefined && o.min_length > o.max_length) {
      issues.push({ path: `${path}/min_length`, message: 'Expected min_length ≤ max_length' });
    }
    const numeric = o.type === 'integer' || o.type === 'number';
    if ((o.min_value !== undefined || o.max_value !== undefined) && !numeric) {
      issues.push({ path, message: 'min_value and max_value apply to integer and number options only' });
    }
    if ((o.min_length !== undefined || o.max_length !== undefined) && o.type !== 'string') {
      issues.push({ path, message: 'min_length and max_length apply to string options only' });
    }
    o.choices?.forEach((c, j) => {
      const ok = o.type === 'string' ? typeof c.value === 'string' : numeric && typeof c.value === 'number';
      if (!ok)
        issues.push({
          path: `${path}/choices/${j}/value`,
          message: `Choice value does not fit an option of type ${o.type}`,
        });
      else if (o.type === 'integer' && !Number.isInteger(c.value)) {
        issues.push({ path: `${path}/choices/${j}/value`, message: 'Expected an integer choice value' });
      }
    });
    if (o.type === 'subcommand' && 'options' in o && o.options) {
      issues.push(...optionIssues(o.options, `${path}/options`));
    }
  });
  return issues;
}

/**
 * CONTRACT: command names unique in the set, option names unique per level, one level of subcommands,
 * and bounded values under unknown option keys (`openOptionValueDepth`, `openOptionBytes`).
 */
export function commandSetIssues(commands: readonly CommandDefinition[]): ErrorDetail[] {
  const issues: ErrorDetail[] = [];
  const names = new Set<string>();
  commands.forEach((c, i) => {
    if (names.has(c.name)) issues.push({ path: `/${i}/name`, message: `Duplicate command name "${c.name}"` });
    names.add(c.name);
    issues.push(...optionIssues(c.options ?? [], `/${i}/options`));
    issues.push(...openOptionValueIssues(c, `/${i}`));
  });
  return issues;
}
