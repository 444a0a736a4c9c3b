import { Hono } from 'hono';
import { packageVersion } from '../config/version.js';
import { mount } from './mount.js';

/**
 * `GET /__admin/openapi.json`: the admin API as an OpenAPI 3.1 document; `GET
 * /__admin/notification.openapi.json` and `notification.asyncapi.json`: the notification webhook as
 * OpenAPI 3.1 and AsyncAPI 3.0 (decision 0131). Each is built on first request (lazy import:
 * start-up does not pay for the JSON Schema conversion) and cached. They pass the admin guard like
 * every route but health (with `--admin-token`, they need the token).
 */
export function openApiRoutes(): Hono {
  let document: Promise<Record<string, unknown>> | undefined;
  let webhook: Promise<Record<string, unknown>> | undefined;
  let asyncApi: Promise<Record<string, unknown>> | undefined;
  const contract = () => import('../contract/documents.js');
  return mount(new Hono(), {
    openApi: () =>
      (document ??= import('./contract/openapi.js').then(({ buildOpenApiDocument }) =>
        buildOpenApiDocument(packageVersion()),
      )),
    notificationOpenApi: () =>
      (webhook ??= contract().then(({ notificationOpenApiDocument }) => notificationOpenApiDocument())),
    notificationAsyncApi: () =>
      (asyncApi ??= contract().then(({ notificationAsyncApiDocument }) => notificationAsyncApiDocument())),
  });
}
