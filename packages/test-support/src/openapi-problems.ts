import { Validator } from '@seriousme/openapi-schema-validator';

/**
 * What keeps `document` from being a valid OpenAPI 3.1 document, as the OpenAPI schema validator
 * reports it: nothing for a valid one. The document is not changed (the validator works on a copy).
 * @param document - an OpenAPI document, as an object
 */
export async function openApi31Problems(document: object): Promise<unknown[]> {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document) as Parameters<Validator['validate']>[0]);
  const problems: unknown[] = typeof result.errors === 'string' ? [result.errors] : [...(result.errors ?? [])];
  if (!result.valid && problems.length === 0) problems.push('the validator found the document invalid');
  if (validator.version !== '3.1') problems.push(`OpenAPI version ${String(validator.version)}, not 3.1`);
  return problems;
}
