/**
 * `npm run openapi`: assembles the OpenAPI 3.1 document from schemas/ and the path table
 * (helpers/openapi/) and writes it to `reports/openapi.json` (or `--out <file>`). The simulator
 * serves that file at `GET /openapi.json` (simulator/src/routes/openapi.ts). Exit code 1 when a
 * table entry names a schema that does not exist (the document is still written, with that shape
 * left open), 2 when the schemas cannot be assembled. See docs/openapi.md.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { assembleOpenApi } from '../helpers/openapi/assemble';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { out: { type: 'string', default: join(root, 'reports', 'openapi.json') } } });

try {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string };
  const { document, missing, components } = assembleOpenApi({ version: pkg.version });
  mkdirSync(dirname(values.out!), { recursive: true });
  writeFileSync(values.out!, JSON.stringify(document, null, 2) + '\n');
  const ops = Object.values(document.paths).reduce(
    (n, item) => n + Object.keys(item).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k)).length,
    0,
  );
  console.log(`openapi: ${Object.keys(document.paths).length} paths, ${ops} operations, ${components.length} schemas → ${values.out}`);
  if (missing.length) {
    console.error(
      `openapi: ${missing.length} table entr${missing.length === 1 ? 'y names a schema' : 'ies name schemas'} that do not exist (left open):\n  ${missing.join('\n  ')}`,
    );
    process.exitCode = 1;
  }
} catch (e) {
  console.error(`openapi: ${(e as Error).message}`);
  process.exitCode = 2;
}
