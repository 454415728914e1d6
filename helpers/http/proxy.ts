/**
 * How the suite's connections reach a remote target: directly, or through the forward proxy that
 * `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` name (lower-case spellings too), as CI runners that
 * reach staging only through a proxy need.
 *
 * The client and the control client send through {@link suiteDispatcher} (undici's
 * `EnvHttpProxyAgent`, which reads those variables); the raw sockets of helpers/http/raw-http.ts ask
 * {@link proxyFor}, which applies the same rule, and open a `CONNECT` tunnel through the proxy.
 * The embedded simulator (`CORE_API_BASE_URL` unset) is always reached directly: the run started
 * it on this machine's loopback, where a proxy has no business.
 *
 * A private certificate authority is not configured here: Node reads `NODE_EXTRA_CA_CERTS` (a PEM
 * file) at start-up and trusts it for every TLS connection of the process, undici's and raw
 * sockets alike.
 */
import { Agent, Client, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import type { Duplex } from 'node:stream';
import { registerSecret } from '../base/redact';
import { readEnv, type EnvSource } from '../base/env';

/** The proxy variables as the run reads them; empty values count as unset. */
export interface ProxySettings {
  /** Proxy for `http:` targets (`http_proxy`, else `HTTP_PROXY`). */
  httpProxy?: string;
  /** Proxy for `https:` targets (`https_proxy`, else `HTTPS_PROXY`, else the HTTP proxy). */
  httpsProxy?: string;
  /** Comma- or space-separated hosts (`host`, `.domain`, `*.domain`, `host:port`, or `*`) reached directly (`no_proxy`, else `NO_PROXY`). */
  noProxy: string;
}

/**
 * Reads the proxy variables of `env` (default the process's environment) with the precedence
 * undici's EnvHttpProxyAgent gives them (lower case first; helpers/base/env.ts reads a set alias first).
 * @throws EnvError when a proxy variable is not an http(s) URL.
 */
export function proxySettings(env?: EnvSource): ProxySettings {
  const httpProxy = readEnv('HTTP_PROXY', env);
  const httpsProxy = readEnv('HTTPS_PROXY', env) ?? httpProxy;
  return { httpProxy, httpsProxy, noProxy: (readEnv('NO_PROXY', env) ?? []).join(',') };
}

/** Whether the run talks to a remote target (`CORE_API_BASE_URL` set), the only kind a proxy applies to. */
function remoteTarget(env?: EnvSource): boolean {
  return readEnv('CORE_API_BASE_URL', env) !== undefined;
}

/**
 * Whether `NO_PROXY` lets `url` bypass the proxy: the same rule as undici's EnvHttpProxyAgent (an
 * entry matches the host or any subdomain of it, a leading `.` or `*.` ignored, a `:port` suffix
 * limits it to that port, `*` alone matches everything, an empty list matches nothing).
 */
export function bypassesProxy(url: URL, noProxy: string): boolean {
  const entries = noProxy.split(/[,\s]/).filter(Boolean);
  if (entries.length === 0) return false;
  if (noProxy === '*') return true;
  const host = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(url.port, 10) || (url.protocol === 'https:' ? 443 : url.protocol === 'http:' ? 80 : 0);
  for (const entry of entries) {
    const m = /^(.+):(\d+)$/.exec(entry);
    const name = (m ? m[1] : entry).replace(/^\*?\./, '').toLowerCase();
    if (m && Number(m[2]) !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/**
 * The proxy URL a connection to `target` goes through, or undefined for a direct connection:
 * never for the embedded simulator, else by scheme and `NO_PROXY` as {@link suiteDispatcher} decides.
 */
export function proxyFor(target: string | URL, env?: EnvSource): string | undefined {
  if (!remoteTarget(env)) return undefined;
  const url = typeof target === 'string' ? new URL(target) : target;
  const s = proxySettings(env);
  const proxy = url.protocol === 'https:' ? s.httpsProxy : s.httpProxy;
  if (!proxy || bypassesProxy(url, s.noProxy)) return undefined;
  return proxy;
}

/** A proxy URL without its credentials (user and password removed), for log lines and reports. */
export function proxyLabel(proxy: string): string {
  try {
    const u = new URL(proxy);
    u.username = '';
    u.password = '';
    return u.href.replace(/\/$/, '');
  } catch {
    return '(unparsable proxy URL)';
  }
}

/** Registers a proxy URL's password (and its user:password pair) with the redaction point, so no error message carries them. */
function registerProxySecrets(proxy: string | undefined): void {
  if (!proxy) return;
  try {
    const u = new URL(proxy);
    if (u.password) {
      registerSecret(decodeURIComponent(u.password), 'proxy password');
      registerSecret(u.password, 'proxy password');
    }
  } catch {
    // an unparsable proxy URL fails on the first request with undici's own message
  }
}

/**
 * One line saying which proxy the run's requests to `baseUrl` go through, without credentials,
 * e.g. `proxy: https://staging.example.com/core via http://proxy.internal:3128 (HTTPS_PROXY; NO_PROXY: localhost)`;
 * undefined when they go direct and no proxy variable is set. A proxy variable that `NO_PROXY`
 * overrides for this target is named too, so a run that bypasses its proxy says so.
 */
export function describeProxy(baseUrl: string, env?: EnvSource): string | undefined {
  const s = proxySettings(env);
  if (!s.httpProxy && !s.httpsProxy) return undefined;
  if (!remoteTarget(env)) return 'proxy: not used for the embedded simulator (it runs on this machine); HTTP(S)_PROXY applies to CORE_API_BASE_URL targets';
  const url = new URL(baseUrl);
  const via = proxyFor(url, env);
  const which = url.protocol === 'https:' && readEnv('HTTPS_PROXY', env) ? 'HTTPS_PROXY' : 'HTTP_PROXY';
  const no = s.noProxy ? `; NO_PROXY: ${s.noProxy}` : '';
  if (!via) {
    const why = bypassesProxy(url, s.noProxy) ? 'NO_PROXY matches it' : `no proxy variable for ${url.protocol.slice(0, -1)}`;
    return `proxy: none, requests to ${baseUrl} go direct (${why}${no})`;
  }
  return `proxy: requests to ${baseUrl} go through ${proxyLabel(via)} (${which}${no})`;
}

/**
 * The undici dispatcher the suite sends through: an `EnvHttpProxyAgent` (which honours
 * `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY`) for a remote target, a plain `Agent` for the
 * embedded simulator. `options` are undici Agent options (connection pool size, keep-alive in ms),
 * applied to the direct and the proxied connections alike.
 */
export function suiteDispatcher(options: Agent.Options = {}, env?: EnvSource): Dispatcher {
  if (!remoteTarget(env)) return new Agent(options);
  const s = proxySettings(env);
  if (!s.httpProxy && !s.httpsProxy) return new Agent(options);
  registerProxySecrets(s.httpProxy);
  registerProxySecrets(s.httpsProxy);
  return new EnvHttpProxyAgent({ ...options, httpProxy: s.httpProxy ?? '', httpsProxy: s.httpsProxy ?? '', noProxy: s.noProxy });
}

/**
 * Opens a `CONNECT` tunnel through `proxy` (an http: or https: proxy URL, credentials in it sent as
 * `Proxy-Authorization: Basic …`) to the host and port of `target`, with undici's client, and
 * resolves with the tunnel's socket (plain TCP: the caller starts TLS inside it for an https target).
 * @throws Error when the proxy cannot be reached, is a SOCKS proxy, or refuses the tunnel (its status in the message).
 */
export async function openTunnel(proxy: string, target: URL, timeoutMs: number): Promise<Duplex> {
  const p = new URL(proxy);
  if (p.protocol !== 'http:' && p.protocol !== 'https:')
    throw new Error(`raw requests cannot go through a ${p.protocol.slice(0, -1)} proxy (${proxyLabel(proxy)})`);
  registerProxySecrets(proxy);
  const authority = target.port ? target.host : `${target.host}:${target.protocol === 'https:' ? 443 : 80}`;
  const headers: Record<string, string> = { host: authority };
  if (p.username)
    headers['proxy-authorization'] = `Basic ${Buffer.from(`${decodeURIComponent(p.username)}:${decodeURIComponent(p.password)}`).toString('base64')}`;
  const client = new Client(p.origin);
  try {
    const { socket, statusCode } = await client.connect({ path: authority, headers, signal: AbortSignal.timeout(timeoutMs) });
    if (statusCode !== 200) {
      socket.destroy();
      throw new Error(`proxy ${proxyLabel(proxy)} refused the tunnel to ${authority}: ${statusCode}`);
    }
    socket.once('close', () => void client.destroy());
    return socket;
  } catch (e) {
    void client.destroy();
    throw e;
  }
}
