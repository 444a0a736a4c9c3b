import { readFileSync } from 'node:fs';
import { Hono } from 'hono';

/**
 * `GET /__admin/openapi.json`: the admin API as an OpenAPI 3.1 document. Built on first request
 * (lazy import: start-up does not pay for the JSON Schema conversion) and cached.
 */
export function openApiRoutes(): Hono {
  let document: Promise<Record<string, unknown>> | undefined;
  const app = new Hono();
  app.get('/openapi.json', async (c) => {
    document ??= import('./contract/openapi.js').then(({ buildOpenApiDocument }) =>
      buildOpenApiDocument(packageVersion()),
    );
    return c.json(await document);
  });
  return app;
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
