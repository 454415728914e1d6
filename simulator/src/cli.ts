/**
 * `npm run simulator -- --port 4010 [--host 127.0.0.1] [--personality alt] [--no-control] [--path-prefix /core] [--wildcard-dns <domain>]`: starts the simulator,
 * prints its base URL and runs until SIGINT/SIGTERM. `--personality alt` takes the alternative
 * reading of the spec (personality.ts); `--no-control` serves no control API (every spelling of
 * `/__control` is then an unknown public route); `--path-prefix /core` mounts everything below
 * that prefix, as behind a gateway that strips it (server.ts `pathPrefix`); `--wildcard-dns <domain>`
 * resolves names under the domain as sslip.io does (`10-0-0-1.<domain>` → 10.0.0.1; wildcard-dns.ts).
 */
import { parseArgs } from 'node:util';
import { normalisePathPrefix, startSimulator } from './server.ts';
import { PERSONALITIES, type Personality } from './config.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', short: 'p', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    personality: { type: 'string', default: 'default' },
    'no-control': { type: 'boolean', default: false },
    'path-prefix': { type: 'string', default: '' },
    'wildcard-dns': { type: 'string' },
  },
});
if (!PERSONALITIES.includes(values.personality as Personality)) {
  console.error(`invalid --personality: ${values.personality} (one of ${PERSONALITIES.join(', ')})`);
  process.exit(2);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`invalid --port: ${values.port}`);
  process.exit(2);
}

let pathPrefix: string;
try {
  pathPrefix = normalisePathPrefix(values['path-prefix']);
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}

const sim = await startSimulator({
  host: values.host,
  port,
  personality: values.personality as Personality,
  control: !values['no-control'],
  pathPrefix,
  wildcardDns: values['wildcard-dns'],
});
console.log(sim.baseUrl);
console.log(values['no-control'] ? 'control: off (--no-control)' : `control: ${sim.controlUrl}`);

let closing = false;
const stop = async (): Promise<void> => {
  if (closing) return;
  closing = true;
  await sim.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
