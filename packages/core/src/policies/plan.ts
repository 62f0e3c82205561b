import type { HandlerTarget, KindRules, Phase, Stage } from './stages.js';

/** The stages that apply to one handler of one kind, by the part of the run they make up. */
export interface Plan {
  /** `open`: before anything can speak (also before the runtime's own answers). */
  open: readonly Stage[];
  /** `guard`, `arguments`, `admit`: each may stop the run. */
  gate: readonly Stage[];
  /** `around`: each wraps the rest. */
  around: readonly Stage[];
  /** `handle`, `result`: the handler and what its result does. */
  inner: readonly Stage[];
  /** `finish`: once the `around` stages returned (the handler ran, or one of them stopped it). */
  finish: readonly Stage[];
}

/**
 * The plans of a bot's handlers, made at a handler's first run and kept (a stage's `applies` is
 * asked once), until the stages change.
 */
export class Plans {
  private cache = new WeakMap<HandlerTarget, Map<KindRules, Plan>>();

  /** @param stages - every stage, in the order they were given */
  constructor(private stages: readonly Stage[]) {}

  /** The plan of a handler of a kind. */
  of(target: HandlerTarget, rules: KindRules): Plan {
    let byRules = this.cache.get(target);
    if (byRules === undefined) {
      byRules = new Map();
      this.cache.set(target, byRules);
    }
    let plan = byRules.get(rules);
    if (plan === undefined) {
      plan = planOf(this.stages, target, rules);
      byRules.set(rules, plan);
    }
    return plan;
  }

  /**
   * Makes every plan again at its next run: the stages changed, or what they apply to did (the bot's
   * middleware).
   * @param stages - every stage, in order, if they changed
   */
  replan(stages: readonly Stage[] = this.stages): void {
    this.stages = stages;
    this.cache = new WeakMap();
  }
}

function planOf(stages: readonly Stage[], target: HandlerTarget, rules: KindRules): Plan {
  const applying = stages.filter((stage) => stage.applies?.(target, rules) ?? true);
  const of = (...phases: Phase[]) => phases.flatMap((phase) => applying.filter((stage) => stage.phase === phase));
  return {
    open: of('open'),
    gate: of('guard', 'arguments', 'admit'),
    around: of('around'),
    inner: of('handle', 'result'),
    finish: of('finish'),
  };
}
