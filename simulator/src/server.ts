/**
 * The simulator's HTTP server: one Fastify instance carrying the control API (`/__control/*`,
 * control/index.ts) and the public Core API (routes/index.ts), with the §5 auth hook, the §2.1/§7
 * envelope for every error and a JSON body parser that maps syntax errors to 400 PARSE.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from 'fastify';
import { pipeline, Transform, type Duplex, type Readable } from 'node:stream';
import './types.ts';
import { authenticate } from './auth.ts';
import { controlApi } from './control/index.ts';
import { ApiError, errorBody, internalError, notFound, requestPath, sendError, unknownRoute, unparsableBody, validationError } from './envelope.ts';
import { bodyLimits, MAX_BODY_BYTES, oversizeBodyAnswer, READ_LIMIT_BYTES } from './validation/body-limits.ts';
import { controlPathReading, parsedBody, readsBodyAsJson, servedAtRoot } from './request-input.ts';
import { behaviourFor } from './faults/index.ts';
import { applyChaos } from './chaos.ts';
import { routePlugins } from './routes/index.ts';
import { SimState } from './state.ts';
import type { Personality } from './config.ts';
import { altOnSend } from './personality.ts';

/** Options of {@link buildSimulator}. */
export interface BuildOptions {
  /** Store to use (a fresh one by default). */
  state?: SimState;
  /** Extra public route plugins registered after the built-in ones (tests use this). */
  plugins?: FastifyPluginAsync[];
  /** Reading of the spec where it leaves a choice (personality.ts); default `default`. A control reset returns to it. */
  personality?: Personality;
  /** Serve the control API (default true). `false` (CLI `--no-control`) hides it: every spelling of `/__control` is then an unknown public route. */
  control?: boolean;
  /**
   * Mount everything (public and control API) below this path prefix, e.g. `/core` (CLI
   * `--path-prefix`), as behind a gateway that routes `/core/*` to the API and strips the prefix:
   * the API sees `/assistants` (so `metadata.path` has no prefix), and any path outside the prefix
   * gets the gateway's own plain-text 404. Default: none.
   */
  pathPrefix?: string;
  /**
   * Resolve names under this domain as a wildcard DNS service does (`10-0-0-1.<domain>` → 10.0.0.1;
   * wildcard-dns.ts), after the control DNS table; default none. CLI `--wildcard-dns <domain>`.
   */
  wildcardDns?: string;
}

/**
 * Normalises a mount prefix: '' for none, else one leading slash and no trailing one (`core/` → `/core`).
 * @throws Error for a prefix holding `?`, `#`, `%` or white space.
 */
export function normalisePathPrefix(prefix: string | undefined): string {
  const p = (prefix ?? '').trim().replace(/^\/+|\/+$/g, '');
  if (/[?#%\s]/.test(p)) throw new Error(`invalid path prefix ${JSON.stringify(prefix)}: a path without ?, #, % or spaces, e.g. /core`);
  return p ? `/${p}` : '';
}

/**
 * A Fastify `rewriteUrl` for a mount prefix: strips it from URLs below it and notes the requests
 * outside it in `outside` (answered 404 by the first hook, before authentication).
 */
function prefixRewriter(prefix: string, outside: WeakSet<object>): (req: { url?: string }) => string {
  return (req) => {
    const url = req.url ?? '/';
    if (url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`)) {
      const rest = url.slice(prefix.length);
      return rest.startsWith('/') ? rest : `/${rest}`;
    }
    outside.add(req);
    return url;
  };
}

/** Thrown by the body parser for a body that is not valid JSON; rendered as 400 PARSE. */
export class BodyParseError extends Error {
  readonly code = 'SIM_PARSE';
  override name = 'BodyParseError';
}

/** A body read whole and refused (not JSON, too large, past a limit): the parser's answer, raised as `error` before validation. */
class RefusedBody {
  constructor(readonly error: Error) {}
}

function isParseError(err: FastifyError | Error): boolean {
  if (err instanceof BodyParseError) return true;
  const code = (err as FastifyError).code;
  return typeof code === 'string' && code.startsWith('FST_ERR_CTP_') && code !== 'FST_ERR_CTP_BODY_TOO_LARGE';
}

/**
 * Maps any error thrown on a public route to its failure envelope (§7). ApiError keeps its own
 * status/code; a bad JSON body is 400 PARSE; a too-large body is 413 PAYLOAD_TOO_LARGE (not
 * listed in §7; clients keep an unknown-code fallback); anything else is a generic 500 with no
 * internals.
 */
function toApiError(state: SimState, err: FastifyError | Error): ApiError {
  if (err instanceof ApiError) return err;
  if (isParseError(err)) return state.behaviour.of(unparsableBody)();
  if ((err as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
  }
  return internalError();
}

/**
 * Answers a request Node's HTTP parser rejected (malformed request line or header, oversized
 * headers, timeout) with a §7-shaped envelope instead of Fastify's default body. No route was
 * matched, so `metadata.path` is left out (it is optional, §2.1). Codes are not in §7's table
 * (`BAD_REQUEST`, `REQUEST_TIMEOUT`, `HEADERS_TOO_LARGE`); clients keep an unknown-code fallback.
 */
function clientError(state: SimState, err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, code] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'REQUEST_TIMEOUT']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'HEADERS_TOO_LARGE']
        : [400, 'Bad Request', 'BAD_REQUEST'];
  const body = errorBody(state, '', new ApiError(status, code, 'Malformed HTTP request'));
  delete (body.metadata as Record<string, unknown>).path;
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy();
}

/** Whether a request URL is for the control API (one decoded reading of the path, request-input.ts). */
type IsControl = (url: string | undefined) => boolean;

/**
 * Errors raised while routing. Control paths get the control shape; public ones the key check,
 * then: a path parameter longer than 4096 characters is an id we cannot hold (404
 * RESOURCE_NOT_FOUND); a malformed percent-encoding names no route we serve (404 NOT_FOUND).
 */
function frameworkError(state: SimState, isControl: IsControl, error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (isControl(request.url)) {
    void reply.code(400).send({ error: 'malformed request' });
    return;
  }
  try {
    authenticate(state, request, null);
    const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
    void sendError(reply, tooLong ? notFound() : new ApiError(404, 'NOT_FOUND', 'Route not found'));
  } catch (e) {
    void sendError(reply, toApiError(state, e as Error));
  }
}

/** The store a build uses (the given one or a fresh one), with the fault catalogue and the build's options applied. */
function prepareState(opts: BuildOptions): SimState {
  const state = opts.state ?? new SimState();
  state.behaviourFor = behaviourFor;
  if (opts.wildcardDns) state.wildcardDns = opts.wildcardDns;
  if (opts.personality) {
    state.basePersonality = opts.personality;
    state.config.personality = opts.personality;
  }
  return state;
}

/**
 * `payload` passed on up to {@link MAX_BODY_BYTES} bytes; past them the rest is read and dropped,
 * and `onOver` is called once. The stream reports every byte read as `receivedEncodedLength`, so
 * Fastify still compares the whole body with its Content-Length and applies its read limit.
 */
function cappedBody(payload: Readable, onOver: () => void): Readable {
  let seen = 0;
  const capped: Transform & { receivedEncodedLength?: number } = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      const before = seen;
      seen += chunk.length;
      capped.receivedEncodedLength = seen;
      if (seen <= MAX_BODY_BYTES) return next(null, chunk);
      if (before <= MAX_BODY_BYTES) onOver();
      next();
    },
  });
  pipeline(payload, capped, () => {});
  return capped;
}

/**
 * One body parser for every content type: the body must be JSON (§4 "Content-Type:
 * application/json"); a body sent under another content type is still read as JSON rather than
 * answered with Fastify's own 415. Empty body → undefined.
 */
function addBodyParser(app: FastifyInstance, state: SimState): void {
  app.removeAllContentTypeParsers();
  // A body refused after it was read whole keeps the connection: the refusal is raised before
  // validation, not by the parser (Fastify closes the connection after a parser's error, since the
  // client might still be sending; here nothing is left unread).
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (request.body instanceof RefusedBody) throw request.body.error;
  });
  // A body that may pass the limit (no Content-Length, or one above it) is counted as it arrives
  // and kept only up to the limit: the rest is read and dropped, so the 413 comes after the whole
  // body, without joining and decoding megabytes (issue 43: the robustness phase sends 790 MB).
  const oversized = new WeakSet<object>();
  app.addHook('preParsing', async (request: FastifyRequest, reply: FastifyReply, payload: Readable) => {
    const length = request.headers['content-length'];
    if (length === undefined ? request.headers['transfer-encoding'] === undefined : Number(length) <= MAX_BODY_BYTES) return payload;
    const capped = cappedBody(payload, () => oversized.add(request.raw));
    // A body no parser reads (an answer before parsing, a body without a Content-Type) is read to
    // its end once the answer is out, as Node does for a body nobody read: the connection's next
    // request starts after it.
    reply.raw.once('finish', () => capped.resume());
    return capped;
  });
  // The body of an unknown route is not read: it answers 404 NOT_FOUND whatever it carries.
  app.addContentTypeParser(
    '*',
    // As bytes: a body past the limit is refused without being decoded.
    { parseAs: 'buffer', bodyLimit: READ_LIMIT_BYTES },
    (req: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
      if (req.is404) return done(null, undefined);
      if (!state.behaviour.of(readsBodyAsJson)(req.headers['content-type'])) return done(null, undefined);
      // The limits of validation/body-limits.ts: checked after the whole body was read, so the
      // client always gets the answer (413 or 400), never a reset.
      if (oversized.has(req.raw)) return done(null, new RefusedBody(new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large')));
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return done(null, new RefusedBody(new BodyParseError('invalid JSON body')));
      }
      const problem = state.behaviour.of(bodyLimits)(parsed);
      if (problem) return done(null, new RefusedBody(validationError([problem])));
      done(null, state.behaviour.of(parsedBody)(parsed));
    },
  );
}

/** What happens before a public route is chosen: an oversized body answered early, and the gateway's 404 outside the mount prefix. */
function addIntakeHooks(app: FastifyInstance, state: SimState, isControl: IsControl, prefix: string, outsidePrefix: WeakSet<object>): void {
  // A reading that answers an oversized body from its Content-Length alone (validation/body-limits.ts
  // `oversizeBodyAnswer`) closes the connection before the body is read (clients still writing it
  // may see a reset).
  app.addHook('preParsing', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    if (state.behaviour.of(oversizeBodyAnswer)() !== 'from-content-length' || isControl(request.url)) return payload;
    if (Number(request.headers['content-length'] ?? 0) <= MAX_BODY_BYTES) return payload;
    reply.header('connection', 'close');
    await sendError(reply, new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large'));
    request.raw.socket.destroy();
    return payload;
  });

  // Outside the mount prefix the API is never reached: the gateway's own 404, not the API's envelope.
  if (prefix) {
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (!outsidePrefix.has(request.raw)) return;
      await reply.code(404).type('text/plain; charset=utf-8').send(`404 Not Found: no route for this path at the gateway (the API is mounted at ${prefix})\n`);
      return reply;
    });
  }
}

/** The public API's hooks: authentication and chaos first, the personality's changes on the way out, errors and unknown routes in the envelope. */
function addPublicHooks(app: FastifyInstance, state: SimState, isControl: IsControl, outsidePrefix: WeakSet<object>): void {
  // §5: every public route authenticates before anything else (even body parsing).
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (isControl(request.url)) return;
    if (await applyChaos(state, request, reply, 'front')) return reply;
    const scope = request.is404 ? null : (request.routeOptions.config.scope ?? 'tenant');
    request.principal = authenticate(state, request, scope);
    if (await applyChaos(state, request, reply, 'app')) return reply;
  });

  // The alt personality's choices (personality.ts) are applied to public answers as they leave.
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (isControl(request.url) || outsidePrefix.has(request.raw)) return payload;
    return altOnSend(state, request, reply, payload);
  });

  app.setErrorHandler((err: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    return sendError(reply, toApiError(state, err));
  });

  // §9.2: the routes are served at the root path; a route a reading does not serve there answers
  // as an unknown route would (request-input.ts `servedAtRoot`).
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (isControl(request.url) || state.behaviour.of(servedAtRoot)(request.method, requestPath(request))) return;
    return sendError(reply, new ApiError(404, 'NOT_FOUND', 'Route not found'));
  });

  // Unknown route: the auth hook has already run (401 without valid credentials, so the route map
  // is not revealed to anonymous callers); with valid credentials 404 NOT_FOUND (§7). A known path
  // with a method we do not serve is also an unknown route.
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => state.behaviour.of(unknownRoute)(request, reply));
}

/**
 * Builds the simulator as a Fastify instance (not listening); use `app.inject` in tests or
 * {@link startSimulator} to serve it. The store is `app.sim`.
 */
export async function buildSimulator(opts: BuildOptions = {}): Promise<FastifyInstance> {
  const prefix = normalisePathPrefix(opts.pathPrefix);
  const outsidePrefix = new WeakSet<object>();
  const state = prepareState(opts);
  const controlOn = opts.control !== false;
  const isControl: IsControl = (url) => controlOn && state.behaviour.of(controlPathReading)(url);
  const app = Fastify({
    ...(prefix ? { rewriteUrl: prefixRewriter(prefix, outsidePrefix) } : {}),
    logger: false, // never log: requests carry API keys (§5.4)
    routerOptions: { maxParamLength: 4096 }, // long path ids reach the route: RESOURCE_NOT_FOUND
    forceCloseConnections: true,
    exposeHeadRoutes: true,
    clientErrorHandler: (err, socket) => clientError(state, err, socket),
    frameworkErrors: (error, request, rawReply) => frameworkError(state, isControl, error as FastifyError, request, rawReply as unknown as FastifyReply),
  });
  app.decorate('sim', state);
  app.decorateRequest('principal', null);
  addBodyParser(app, state);
  addIntakeHooks(app, state, isControl, prefix, outsidePrefix);
  addPublicHooks(app, state, isControl, outsidePrefix);
  if (controlOn) await app.register(controlApi, { prefix: '/__control' });
  for (const plugin of [...routePlugins, ...(opts.plugins ?? [])]) await app.register(plugin);
  return app;
}

/** A running simulator: its base URL, its control URL and a way to stop it. */
export interface RunningSimulator {
  /** e.g. `http://127.0.0.1:40123`, or `http://127.0.0.1:40123/core` under a mount prefix (no trailing slash). */
  baseUrl: string;
  /** Scheme, host and port only, e.g. `http://127.0.0.1:40123`. */
  origin: string;
  /** `${baseUrl}/__control`. */
  controlUrl: string;
  /** The Fastify instance (store at `app.sim`). */
  app: FastifyInstance;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/**
 * Builds and starts the simulator on `host` (default 127.0.0.1) and `port` (default 0 =
 * ephemeral), taking `personality` (default `default`; personality.ts), `control`,
 * `pathPrefix` and `wildcardDns` as {@link BuildOptions}. Rejects if the port cannot be bound or the prefix is invalid.
 */
export async function startSimulator(
  opts: { host?: string; port?: number; personality?: Personality; control?: boolean; pathPrefix?: string; wildcardDns?: string } = {},
): Promise<RunningSimulator> {
  const app = await buildSimulator({ personality: opts.personality, control: opts.control, pathPrefix: opts.pathPrefix, wildcardDns: opts.wildcardDns });
  const host = opts.host ?? '127.0.0.1';
  await app.listen({ host, port: opts.port ?? 0 });
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('simulator did not bind a TCP port');
  const h = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const origin = `http://${h}:${addr.port}`;
  const baseUrl = origin + normalisePathPrefix(opts.pathPrefix);
  return {
    baseUrl,
    origin,
    controlUrl: `${baseUrl}/__control`,
    app,
    close: () => app.close(),
  };
}
