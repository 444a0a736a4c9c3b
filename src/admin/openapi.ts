import { Hono } from 'hono';
import { packageVersion } from '../config/version.js';

/**
 * `GET /__admin/openapi.json`: the admin API as an OpenAPI 3.1 document. Built on first request
 * (lazy import: start-up does not pay for the JSON Schema conversion) and cached.
 */
export function openApiRoutes(): Hono {
  let document: Promise<Record<string, unknown>> | undefined;
  const app = new Hono();
  app.get('/openapi.json', async (c) => {
    document ??= import('./openapi-document.js').then(({ buildOpenApiDocument }) =>
      buildOpenApiDocument(packageVersion()),
    );
    return c.json(await document);
  });
  return app;
}
