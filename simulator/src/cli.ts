/**
 * `npm run simulator -- --port 4010 [--host 127.0.0.1]`: starts the simulator, prints its base
 * URL and runs until SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { startSimulator } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', short: 'p', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`invalid --port: ${values.port}`);
  process.exit(2);
}

const sim = await startSimulator({ host: values.host, port });
console.log(sim.baseUrl);
console.log(`control: ${sim.controlUrl}`);

let closing = false;
const stop = async (): Promise<void> => {
  if (closing) return;
  closing = true;
  await sim.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
