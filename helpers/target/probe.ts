/**
 * The probe that opens every run: one request to the target before the first test, so a run that
 * cannot reach the API stops at once with one line naming the cause and a fix, instead of
 * hundreds of set-up failures that read like a verdict on the API.
 *
 * The probe is `GET <base URL>/assistants` without a key: every careful reading of the spec
 * answers it in the API's envelope (§2.1, §7; a 401 UNAUTHORIZED, §5.6), and it changes nothing.
 * An answer in the envelope, whatever its status and its Content-Type, means the API is there
 * (whether an answer is the API's is read from its body: the API's envelope served as text/html is
 * the API's defect, failed by the envelope audit under 2.1/json-content-type, not an outage); a 429 means something
 * throttles the route, which the client waits out. A refused connection, an unknown host, an
 * untrusted certificate, a proxy that refuses the tunnel, or nothing but answers that are not
 * the API's (a gateway's HTML 502, a 404 page for a wrong path prefix) stop the run.
 */
import { request, type Dispatcher } from 'undici';
import { proxyFor, proxyLabel, suiteDispatcher } from '../http/proxy';
import { redact } from '../base/redact';
import type { EnvSource } from '../base/env';

/** Outcome of {@link probeTarget}: reachable, or the cause and the fix in one line. */
export type ProbeResult = { ok: true; status: number; attempts: number } | { ok: false; cause: string; fix: string; attempts: number };

/** Options of {@link probeTarget}. */
export interface ProbeOptions {
  /** Attempts while only non-API answers, resets or timeouts come back (default 3). Refused connections, unknown hosts and TLS failures are not retried. */
  attempts?: number;
  /** Pause before the second attempt in ms, doubling after (default 1,000). */
  pauseMs?: number;
  /** Time allowed for the answer's headers and for its body, each, in ms (default 15,000). */
  timeoutMs?: number;
  /** Dispatcher to send through (default: a fresh {@link suiteDispatcher}, closed afterwards). */
  dispatcher?: Dispatcher;
}

/** TLS error codes that mean "the certificate chain ends at an authority Node does not trust". */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

/** Error codes worth another attempt (the network or the target had a bad moment). */
const TRANSIENT = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_ABORTED',
]);

/** The first `code` along an error's `cause` chain, and the deepest message. */
function codeOf(e: unknown): { code?: string; message: string } {
  let code: string | undefined;
  let message = e instanceof Error ? e.message : String(e);
  for (let cur = e as { code?: unknown; cause?: unknown } | undefined, depth = 0; cur && depth < 5; cur = cur.cause as typeof cur, depth += 1) {
    if (!code && typeof cur.code === 'string') code = cur.code;
    if (cur instanceof Error && cur.message) message = cur.message;
  }
  // An error that kept only the text of the one it wraps (the control client's) still names the code.
  code ??= /\b(E[A-Z]{4,}|UND_ERR_[A-Z_]+|(?:[A-Z]+_)+CERT(?:_[A-Z]+)*|CERT_[A-Z_]+|ERR_(?:TLS|SSL)_[A-Z_]+)\b/.exec(message)?.[1];
  return { code, message };
}

/**
 * Names why a connection to `url` failed and what fixes it, from the error undici or Node raised:
 * refused connection, unknown host, unreachable network, each kind of TLS failure, a proxy that
 * refused the tunnel, a timeout. `transient` says whether another attempt could help.
 */
export function connectionCause(e: unknown, url: string, env?: EnvSource): { cause: string; fix: string; transient: boolean } {
  const u = new URL(url);
  const { code, message } = codeOf(e);
  const proxy = proxyFor(u, env);
  const via = proxy ? ` (through the proxy ${proxyLabel(proxy)})` : '';
  const proxyStatus = /Proxy response \((\d+)\)/.exec(message)?.[1];
  if (proxyStatus) {
    return {
      cause: `the proxy ${proxy ? proxyLabel(proxy) : ''} refused the tunnel to ${u.host} (${proxyStatus})`.replace('proxy  ', 'proxy '),
      fix:
        proxyStatus === '407'
          ? 'check the user and password in HTTPS_PROXY / HTTP_PROXY'
          : 'check that the proxy may reach that host, or exempt it with NO_PROXY',
      transient: proxyStatus === '502' || proxyStatus === '503' || proxyStatus === '504',
    };
  }
  if (code && UNTRUSTED.has(code)) {
    return {
      cause: `the TLS certificate of ${u.host} is not trusted (${code})${via}`,
      fix: 'if a private certificate authority issued it, set NODE_EXTRA_CA_CERTS=<its PEM file> (never NODE_TLS_REJECT_UNAUTHORIZED=0)',
      transient: false,
    };
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return {
      cause: `the TLS certificate of ${u.host} is ${code === 'CERT_HAS_EXPIRED' ? 'expired' : 'not yet valid'} (${code})`,
      fix: "renew the certificate of the target (or check this machine's clock)",
      transient: false,
    };
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return {
      cause: `the TLS certificate of ${u.host} does not name ${u.hostname} (${code})`,
      fix: 'use the host name the certificate was issued for in CORE_API_BASE_URL',
      transient: false,
    };
  }
  if (code === 'ECONNREFUSED') {
    return {
      cause: `connection refused by ${proxy ? proxyLabel(proxy) : u.host}: nothing listens there`,
      fix: proxy ? 'check that the proxy in HTTPS_PROXY / HTTP_PROXY is up' : 'check that the target is up and that CORE_API_BASE_URL names its host and port',
      transient: false,
    };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return {
      cause: `the host name ${u.hostname} does not resolve (DNS ${code})${via}`,
      fix: 'check the host in CORE_API_BASE_URL; if only a proxy can resolve it, set HTTPS_PROXY',
      transient: code === 'EAI_AGAIN',
    };
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return {
      cause: `no route to ${u.host} (${code})`,
      fix: 'if this runner reaches the target only through a proxy, set HTTPS_PROXY (and NO_PROXY for what stays direct)',
      transient: false,
    };
  }
  if (code && /^ERR_SSL_|^ERR_TLS_|^EPROTO$/.test(code)) {
    return {
      cause: `TLS handshake with ${u.host} failed (${code}: ${message})${via}`,
      fix: 'check that CORE_API_BASE_URL uses the scheme and port the target serves (https on a TLS port)',
      transient: false,
    };
  }
  return {
    cause: `no answer from ${u.host}${via} (${code ? `${code}: ` : ''}${message})`,
    fix: 'check that the target is up and reachable from this machine',
    transient: code === undefined || TRANSIENT.has(code),
  };
}

/**
 * Whether an answer is in the API's envelope (§2.1): its body is a JSON object with a `success`
 * field, whatever its Content-Type says (the body tells whose answer it is; the media type is
 * judged by the envelope audit).
 */
function isApiAnswer(text: string): boolean {
  try {
    const body = JSON.parse(text);
    return body !== null && typeof body === 'object' && !Array.isArray(body) && 'success' in body;
  } catch {
    return false;
  }
}

/**
 * Probes the target at `baseUrl` (see the module comment). Never throws: a failure comes back as
 * `{ ok: false, cause, fix }` with secrets redacted.
 */
export async function probeTarget(baseUrl: string, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const attempts = Math.max(1, opts.attempts ?? 3);
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const dispatcher = opts.dispatcher ?? suiteDispatcher();
  const url = `${baseUrl}/assistants`;
  const seen: string[] = [];
  let last: { cause: string; fix: string } | undefined;
  try {
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      if (attempt > 1) await new Promise((r) => setTimeout(r, (opts.pauseMs ?? 1_000) * 2 ** (attempt - 2)));
      try {
        const res = await request(url, { headers: { accept: 'application/json' }, dispatcher, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
        const text = await res.body.text();
        const type = String(res.headers['content-type'] ?? '').split(';')[0] || 'no content type';
        if (isApiAnswer(text) || res.statusCode === 429) return { ok: true, status: res.statusCode, attempts: attempt };
        seen.push(`${res.statusCode} ${type}`);
        last = {
          cause: `${url} answers, but not as the Core API: ${seen.join(', ')}${res.statusCode >= 500 ? " (a gateway's page: the API behind it is down or unreachable)" : ''}`,
          fix:
            res.statusCode === 404 || res.statusCode === 403 || res.statusCode < 400
              ? 'check CORE_API_BASE_URL, its path prefix above all (e.g. https://host/core)'
              : 'check the API behind the gateway, then run again',
        };
      } catch (e) {
        const c = connectionCause(e, url);
        last = c;
        if (!c.transient) return { ok: false, cause: redact(c.cause), fix: redact(c.fix), attempts: attempt };
      }
    }
  } finally {
    if (!opts.dispatcher) await dispatcher.close().catch(() => undefined);
  }
  return { ok: false, cause: redact(last!.cause), fix: redact(last!.fix), attempts };
}

/** The one line a run that cannot reach its target stops with; `what` names another outage that stopped it ("no free lane on the live tenant"). */
export function unreachableLine(r: { cause: string; fix: string; what?: string }): string {
  return `conformance: ${r.what ?? 'target unreachable'}, no test ran: ${r.cause}; fix: ${r.fix}`;
}
