/**
 * Renders an OpenAPI document as the committed YAML text: docs/openapi.yaml (from @boardbot/protocol)
 * or docs/control-api.openapi.yaml (from @boardbot/emulator).
 *
 * @param source - the package named in the header @defaultValue `'@boardbot/protocol'`
 */
export function renderOpenApiYaml(doc: object, source?: string): string;
