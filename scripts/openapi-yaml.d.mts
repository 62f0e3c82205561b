/** Renders the OpenAPI document as the committed docs/openapi.yaml text. */
export function renderOpenApiYaml(doc: object): string;
