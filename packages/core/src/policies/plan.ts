import type { HandlerTarget, KindRules, Passage, Phase, Stage } from './stages.js';

/** The stages that apply to one handler, by the part of the run they make up. */
export interface Plan {
  /** `open`: before anything can speak (also before the runtime's own answers). */
  open: readonly Stage[];
  /** `guard`, `arguments`, `admit`: each may stop the run. */
  gate: readonly Stage[];
  /** `around`: each wraps the rest. */
  around: readonly Stage[];
  /** `handle`, `result`: the handler, and what its result does. */
  inner: readonly Stage[];
  /** `finish`: once the `around` stages returned. */
  finish: readonly Stage[];
}

const DONE = Promise.resolve();
const NEXT = () => DONE;
const nothing = (): void => {};

/** Whether `value` is a promise or another thenable, which `await` would wait for. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** The handler itself, the `handle` phase's first stage: called with the arguments, its result kept. */
const HANDLER: Stage = {
  name: 'handler',
  phase: 'handle',
  run(pass) {
    const returned = pass.target.call(...pass.args);
    if (!isThenable(returned)) pass.result = returned;
    else
      return Promise.resolve(returned).then((result) => {
        pass.result = result;
      });
  },
};

/**
 * Runs `stages` in order until one returns `false`; synchronous while they are (a stage with nothing
 * to wait for costs no promise: on Node 20 every promise of a run costs more than its allocation).
 */
export function sequence(stages: readonly Stage[], pass: Passage, from = 0): boolean | Promise<boolean> {
  for (let i = from; i < stages.length; i++) {
    const result = (stages[i] as Stage).run(pass, NEXT);
    if (isThenable(result)) return result.then((r) => r !== false && sequence(stages, pass, i + 1));
    if (result === false) return false;
  }
  return true;
}

/** The `around` stage `i`, whose `next()` is the next one, the last one's the `inner` stages. */
function around(plan: Plan, pass: Passage, i: number): Promise<void> {
  const stage = plan.around[i];
  const result = stage ? stage.run(pass, () => around(plan, pass, i + 1)) : sequence(plan.inner, pass);
  return isThenable(result) ? Promise.resolve(result).then(nothing) : DONE;
}

/**
 * Takes a run through the stages of its plan, in their phases; rejects with what a stage (or the
 * handler) threw.
 */
export async function runPlan(plan: Plan, pass: Passage): Promise<void> {
  const opened = sequence(plan.open, pass);
  if (!(isThenable(opened) ? await opened : opened)) return;
  const passed = sequence(plan.gate, pass);
  if (!(isThenable(passed) ? await passed : passed)) return;
  const inner = plan.around.length === 0 ? sequence(plan.inner, pass) : around(plan, pass, 0);
  if (isThenable(inner)) await inner;
  const finished = sequence(plan.finish, pass);
  if (isThenable(finished)) await finished;
}

/**
 * The plans of a bot's handlers, made at a handler's first run and kept (a stage's `applies` is
 * asked once), until the stages change. A handler is always run with its kind's rules.
 */
export class Plans {
  private cache = new WeakMap<HandlerTarget, Plan>();
  private readonly stages: readonly Stage[];

  /** @param stages - every stage, in the order they were given */
  constructor(stages: readonly Stage[]) {
    this.stages = [HANDLER, ...stages];
  }

  /** The plan of a handler of a kind. */
  of(target: HandlerTarget, rules: KindRules): Plan {
    let plan = this.cache.get(target);
    if (plan === undefined) {
      const applying = this.stages.filter((stage) => stage.applies?.(target, rules) ?? true);
      const of = (...phases: Phase[]) => phases.flatMap((phase) => applying.filter((s) => s.phase === phase));
      plan = {
        open: of('open'),
        gate: of('guard', 'arguments', 'admit'),
        around: of('around'),
        inner: of('handle', 'result'),
        finish: of('finish'),
      };
      this.cache.set(target, plan);
    }
    return plan;
  }

  /** Plans every handler again at its next run: what the stages apply to changed. */
  replan(): void {
    this.cache = new WeakMap();
  }
}
