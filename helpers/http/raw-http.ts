/**
 * Raw HTTP/1.1 requests over a socket (node:net, or node:tls for https targets), for the few
 * checks whose bytes an HTTP client refuses to send: a bare LF or CR inside a header, or an
 * obsolete line folding (§5.6: a key with a trailing newline is refused with 401). undici and
 * fetch validate header values and never put such bytes on the wire, so these requests are
 * written by hand; the answer's status line and body are read back, nothing else is interpreted.
 *
 * They reach the target as the client's requests do: below the base URL's path prefix
 * ({@link rawStart}), through the proxy HTTPS_PROXY / HTTP_PROXY name unless NO_PROXY exempts the
 * target (a CONNECT tunnel, helpers/http/proxy.ts), trusting the CAs Node trusts (NODE_EXTRA_CA_CERTS included).
 */
import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Duplex } from 'node:stream';
import { openTunnel, proxyFor } from './proxy';
import { announceOutsideWrite } from '../base/outside-writes';

/** What came back for a raw request. `status` is undefined when the connection closed without a status line. */
export interface RawAnswer {
  status?: number;
  /** The status line and headers, as received (header values may hold secrets only if the target echoes them; callers redact). */
  head: string;
  /** The body bytes as UTF-8 text (chunked framing left as is). */
  body: string;
  /** Why there is no answer: `closed`, `timeout` or a socket error message. */
  error?: string;
}

/**
 * Sends `request` (the whole request text: request line, headers, blank line, body) to the
 * origin of `baseUrl` (through the proxy that applies to it, if any) and resolves with the answer
 * when the server closes the connection, after `timeoutMs` (default 5,000 ms, the connection and
 * any tunnel included), or once a complete answer with `Content-Length` arrived. Never rejects:
 * a refused connection, tunnel or TLS handshake comes back as `error`.
 */
export function rawRequest(baseUrl: string, request: string, timeoutMs = 5_000): Promise<RawAnswer> {
  // A write the client does not see: announced, so the invariant audits forget what they knew of assistants.
  if (!/^(GET|HEAD) /.test(request)) announceOutsideWrite({ via: 'raw-http', method: request.split(' ', 1)[0], path: request.split(' ', 2)[1] });
  const url = new URL(baseUrl);
  const https = url.protocol === 'https:';
  const port = Number(url.port || (https ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const proxy = proxyFor(url);
  return new Promise((resolve) => {
    let data = Buffer.alloc(0);
    let settled = false;
    let socket: Duplex | undefined;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket?.destroy();
      const text = data.toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const head = split === -1 ? text : text.slice(0, split);
      const body = split === -1 ? '' : text.slice(split + 4);
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      resolve({ status: m ? Number(m[1]) : undefined, head, body, error: m ? undefined : (error ?? 'closed') });
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    const attach = (s: Duplex) => {
      socket = s;
      if (settled) return void s.destroy();
      s.on('data', (chunk: Buffer) => {
        data = Buffer.concat([data, chunk]);
        const text = data.toString('utf8');
        const split = text.indexOf('\r\n\r\n');
        const len = /\r\ncontent-length:\s*(\d+)/i.exec(split === -1 ? '' : text.slice(0, split));
        if (split !== -1 && len && Buffer.byteLength(text.slice(split + 4)) >= Number(len[1])) finish();
      });
      s.on('error', (e) => finish(e.message));
      s.on('close', () => finish());
    };
    const onConnect = () => socket?.write(request);
    const tls = (over?: Duplex) => tlsConnect({ host, port, servername: url.hostname, rejectUnauthorized: true, ...(over ? { socket: over } : {}) }, onConnect);
    if (!proxy) return attach(https ? tls() : netConnect(port, host, onConnect));
    openTunnel(proxy, url, timeoutMs).then(
      (tunnel) => {
        if (https) return attach(tls(tunnel));
        attach(tunnel);
        tunnel.write(request);
      },
      (e: Error) => finish(`proxy: ${e.message}`),
    );
  });
}

/**
 * The request line and `Host` header of a raw GET of `path` on `baseUrl`, ending in CRLF. `path`
 * is relative to the base URL: a base URL with a path prefix (`https://host/core`) keeps it
 * (`GET /core/assistants`), as the client's requests do.
 */
export function rawStart(baseUrl: string, path: string): string {
  const url = new URL(baseUrl);
  const prefix = url.pathname.replace(/\/+$/, '');
  return `GET ${prefix}${path.startsWith('/') ? path : `/${path}`} HTTP/1.1\r\nHost: ${url.host}\r\n`;
}
