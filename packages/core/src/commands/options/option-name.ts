/**
 * The wire name of an option declared without `name`: its property in snake_case (`dueDate` →
 * `due_date`, `maxHP` → `max_hp`, `URLPath` → `url_path`). TypeScript authors write camelCase, and
 * the platform takes only lower-case names (`^[a-z0-9][a-z0-9_-]{0,31}$`). A name that still breaks the
 * rule (a `$` in it, more than 32 characters) is reported by `createBot` with the property behind it.
 *
 * @param property - the options class's property
 */
export function optionNameOf(property: string): string {
  return property
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}
