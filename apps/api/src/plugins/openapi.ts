import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { APP_VERSION } from '#src/lib/route-schemas.js';

/** OpenAPI generated from the routes' zod schemas: `/api/v1/openapi.json`, browsable at `/api/docs`. */
export const openapiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Palisade API', version: APP_VERSION, description: 'Palisade control-plane REST API.' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'palisade_session' } } },
      security: [{ session: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { url: '/api/v1/openapi.json' } });
});

export async function registerOpenapiRoute(app: FastifyInstance): Promise<void> {
  app.get('/api/v1/openapi.json', { schema: { hide: true }, config: { rateLimit: false } }, async () => app.swagger());
}
