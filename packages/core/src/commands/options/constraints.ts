import { getMetadataStorage } from '../../kernel/class-validator.js';

/** One class-validator constraint on a property, as its public metadata storage records it. */
export interface PropertyConstraint {
  /** Validator name, e.g. `isInt`, `min`, `isLength`, `isOptional`. */
  name: string;
  /** Its arguments, e.g. `[2]` for `@Min(2)`. */
  args: readonly unknown[];
}

/**
 * Reads the class-validator constraints of `cls` (inherited ones included) through the public
 * `getMetadataStorage()`, grouped by property. Custom and group-restricted validators are listed
 * too; derivation only uses the names it knows.
 */
export function readConstraints(cls: Function): Map<string, PropertyConstraint[]> {
  const metas = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
  const byProperty = new Map<string, PropertyConstraint[]>();
  for (const m of metas) {
    // `@IsOptional` is a conditional validation named `isOptional`; `@ValidateIf` has another name.
    if (m.type !== 'customValidation' && m.type !== 'conditionalValidation') continue;
    if (m.name === undefined || m.each) continue;
    const list = byProperty.get(m.propertyName) ?? [];
    list.push({ name: m.name, args: Array.isArray(m.constraints) ? m.constraints : [] });
    byProperty.set(m.propertyName, list);
  }
  return byProperty;
}
