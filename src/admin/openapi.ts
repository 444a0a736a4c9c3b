import { Hono } from 'hono';
import { packageVersion } from '../config/version.js';
import { mount } from './mount.js';

/**
 * `GET /__admin/openapi.json`: the admin API as an OpenAPI 3.1 document. Built on first request
 * (lazy import: start-up does not pay for the JSON Schema conversion) and cached.
 */
export function openApiRoutes(): Hono {
  let document: Promise<Record<string, unknown>> | undefined;
  return mount(new Hono(), {
    openApi: () =>
      (document ??= import('./contract/openapi.js').then(({ buildOpenApiDocument }) =>
        buildOpenApiDocument(packageVersion()),
      )),
  });
}
