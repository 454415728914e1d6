/**
 * `GET /openapi.json`: serves the public OpenAPI document (§1: "The public OpenAPI document may
 * be used to generate a client"; §9.5). The simulator does not build the document (it must not
 * read the suite's schemas/): `npm run openapi` assembles it and writes `reports/openapi.json`,
 * which this route reads on every request (`CORE_API_OPENAPI_FILE` overrides the path). The body
 * is the document itself, not an envelope. Until the file exists the route answers 404 NOT_FOUND
 * in the §7 envelope.
 *
 * Auth: every public route passes the simulator's §5 hook; this one takes either key type with no
 * X-Tenant-Id (`organization-or-tenant`).
 */
import type { FastifyPluginAsync } from 'fastify';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError } from '../envelope.ts';

/** Where the document is read from: `CORE_API_OPENAPI_FILE`, else `<repo>/reports/openapi.json`. */
export function openApiFile(): string {
  return process.env.CORE_API_OPENAPI_FILE ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'reports', 'openapi.json');
}

/** Route plugin; registered in routes/index.ts. */
export const openApiRoutes: FastifyPluginAsync = async (app) => {
  app.get('/openapi.json', { config: { scope: 'organization-or-tenant' } }, async (_request, reply) => {
    let text: string;
    try {
      text = await readFile(openApiFile(), 'utf8');
    } catch {
      throw new ApiError(404, 'NOT_FOUND', 'OpenAPI document not generated (run npm run openapi)');
    }
    return reply.type('application/json; charset=utf-8').send(text);
  });
};
