#!/usr/bin/env node
/**
 * An event trigger (docs/event-trigger.md) backed by a simulator's control API: it stands in for
 * an operator's telephony when the suite runs against the simulator in live-tenant mode, so the
 * whole trigger path is rehearsed in `npm test`. It is also the example trigger of the docs: a
 * real one replaces each `control(...)` call with the operator's own means (a call from a test
 * line, a message from a test number, an onboarding event of a sandbox account).
 *
 * Reads one JSON request on stdin and writes one JSON answer on stdout; with `--serve [port]` it is
 * the URL form instead: an HTTP server on loopback answering each JSON POST, printing
 * `listening http://127.0.0.1:<port>/` once ready (one process for a whole run, no start-up per
 * request). Environment:
 * - `SIMULATOR_TRIGGER_CONTROL_URL` (required): the control API, e.g. `http://127.0.0.1:4010/__control`;
 * - `SIMULATOR_TRIGGER_CANNOT` (optional): comma-separated kinds to answer `unsupported`, to
 *   rehearse a trigger that cannot cause everything.
 * Exits 0 with `{ "error": "..." }` when the control API refuses; exits 1 only on a broken request.
 */
const controlUrl = process.env.SIMULATOR_TRIGGER_CONTROL_URL;
const cannot = new Set(
  (process.env.SIMULATOR_TRIGGER_CANNOT ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

/** One control request; answers the parsed JSON (or undefined for an empty body). Throws on a non-2xx answer. */
async function control(method, path, body) {
  const res = await fetch(controlUrl + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`control ${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Runs an end request; resolves true when the control API says the call or conversation had already ended (an end asked twice is quiet), false when it ended now. */
async function alreadyEnded(end) {
  try {
    await end();
    return false;
  } catch (e) {
    if (/answered 400: .*already ended/.test(e.message)) return true;
    throw e;
  }
}

/** A fiction-range E.164 number (555-01xx), distinct enough per request: the "operator's test line". */
function testLine() {
  return `+1555012${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
}

async function answer(req) {
  if (cannot.has(req.kind)) return { unsupported: `this rehearsal trigger was told it cannot cause ${req.kind}` };
  switch (req.kind) {
    case 'start-call': {
      const customerNumber = testLine();
      const call = await control('POST', '/calls', { tenantId: req.tenantId, assistantId: req.assistantId, customerNumber });
      return { id: call.id, callId: call.callId, customerNumber };
    }
    case 'end-call':
      // A call the suite already ended through the API (POST /calls/{id}/end) ends quietly here.
      if (await alreadyEnded(() => control('POST', `/calls/${encodeURIComponent(req.callId)}/end`, { supervisorAnswered: req.supervisorAnswered === true })))
        return {};
      return { supervisorAnswered: req.supervisorAnswered === true };
    case 'start-conversation': {
      const customerIdentifier = req.channel === 'web' ? `visitor-${Date.now().toString(36)}` : testLine();
      const conv = await control('POST', '/conversations', { tenantId: req.tenantId, assistantId: req.assistantId, channel: req.channel, customerIdentifier });
      return { id: conv.id, customerIdentifier };
    }
    case 'end-conversation':
      await alreadyEnded(() => control('POST', `/conversations/${encodeURIComponent(req.conversationId)}/end`));
      return {};
    case 'onboarding': {
      // Onboarding events go to the tenant-level server URL (§6): point it where the suite listens.
      await control('PUT', `/tenants/${encodeURIComponent(req.tenantId)}/server-url`, { url: req.deliverTo });
      const { deliveryId } = await control('POST', '/onboarding-events', { tenantId: req.tenantId, type: req.type });
      return { deliveryId };
    }
    case 'tool-invocation':
      // The assistant invokes the suite's tool during the suite's call (a real trigger: a test line asks for what the tool does).
      await control('POST', '/tool-invocations', { callId: req.callId, toolId: req.toolId });
      return {};
    case 'agent-absent':
      // The assistant briefly out of the room on the suite's live call, or back.
      await control('POST', `/calls/${encodeURIComponent(req.callId)}/agent-absent`, { absent: req.absent === true });
      return {};
    case 'delete-call':
      // Only a call the suite started is ever named here.
      await control('DELETE', `/calls/${encodeURIComponent(req.callId)}`);
      return {};
    case 'tenant-url':
      // The tenant-level server URL leads to the suite's receiver (as onboarding needs); left so.
      await control('PUT', `/tenants/${encodeURIComponent(req.tenantId)}/server-url`, { url: req.deliverTo });
      return {};
    default:
      return { unsupported: `unknown kind ${JSON.stringify(req.kind)}` };
  }
}

/** Answers one request, turning a control failure into `{ error }`. */
async function handle(req) {
  if (!controlUrl) return { error: 'SIMULATOR_TRIGGER_CONTROL_URL is not set' };
  try {
    return await answer(req);
  } catch (e) {
    return { error: e.message };
  }
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt >= 0) {
  const { createServer } = await import('node:http');
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (d) => (body += d));
    request.on('end', async () => {
      let req;
      try {
        req = JSON.parse(body);
      } catch {
        response.writeHead(400).end('the request body is not JSON');
        return;
      }
      const out = JSON.stringify(await handle(req));
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) }).end(out);
    });
  });
  server.listen(Number(process.argv[serveAt + 1] ?? 0) || 0, '127.0.0.1', () => {
    process.stdout.write(`listening http://127.0.0.1:${server.address().port}/\n`);
  });
} else {
  let input = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (d) => (input += d));
  process.stdin.on('end', async () => {
    let req;
    try {
      req = JSON.parse(input);
    } catch {
      process.stderr.write('simulator-trigger: the request on stdin is not JSON\n');
      process.exit(1);
    }
    process.stdout.write(JSON.stringify(await handle(req)));
  });
}
