import { createRequire } from 'node:module';
import type * as ClassValidator from 'class-validator';

// class-validator's index loads every decorator it has, with validator.js and libphonenumber-js
// behind them: about 14 MB of a process's RSS, of which the runtime uses seven decorators (on its own
// classes) and `validate`. The runtime takes each from its own module of the package's CommonJS build
// instead (about 5 MB), the very modules the index re-exports, so a bot's options classes, decorated
// through the index, share their metadata storage and validator. A bot that imports the index itself
// (an options class) loads it anyway; one that does not never does. The package has no `exports`
// map, so its modules can be required by path; a test checks the paths still load.

const require = createRequire(import.meta.url);

/** One module of class-validator's CommonJS build, by its path under `cjs/`. */
function part<T>(path: string): T {
  return require(`class-validator/cjs/${path}.js`) as T;
}

type Pick1<K extends keyof typeof ClassValidator> = Pick<typeof ClassValidator, K>;

export const { IsOptional } = part<Pick1<'IsOptional'>>('decorator/common/IsOptional');
export const { IsIn } = part<Pick1<'IsIn'>>('decorator/common/IsIn');
export const { IsArray } = part<Pick1<'IsArray'>>('decorator/typechecker/IsArray');
export const { IsInt } = part<Pick1<'IsInt'>>('decorator/typechecker/IsInt');
export const { IsString } = part<Pick1<'IsString'>>('decorator/typechecker/IsString');
export const { Min } = part<Pick1<'Min'>>('decorator/number/Min');
export const { MaxLength } = part<Pick1<'MaxLength'>>('decorator/string/MaxLength');
export const { getMetadataStorage } = part<Pick1<'getMetadataStorage'>>('metadata/MetadataStorage');

interface ValidatorParts {
  getFromContainer: <T>(someClass: new () => T) => T;
  Validator: new () => {
    validate(object: object, options?: ClassValidator.ValidatorOptions): Promise<ClassValidator.ValidationError[]>;
  };
}

let validator: ReturnType<typeof loadValidator> | undefined;

function loadValidator() {
  const { getFromContainer } = part<Pick<ValidatorParts, 'getFromContainer'>>('container');
  const { Validator } = part<Pick<ValidatorParts, 'Validator'>>('validation/Validator');
  return getFromContainer(Validator);
}

/**
 * class-validator's `validate(object, options)`, the same as its index's (the validator of its
 * container), loaded at the first validation: a bot whose commands take no options never loads it.
 */
export function validate(
  object: object,
  options?: ClassValidator.ValidatorOptions,
): Promise<ClassValidator.ValidationError[]> {
  validator ??= loadValidator();
  return validator.validate(object, options);
}
