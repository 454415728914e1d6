/**
 * A forward proxy for tests: `CONNECT host:port` tunnels (what undici's ProxyAgent and the raw
 * sockets of helpers/http/raw-http.ts ask for, https and http targets alike), with optional Basic
 * credentials, counting every tunnel so a test can prove its requests went through it. Written on
 * node:http and node:net because the suite's own dependencies are what a fresh clone installs, and
 * a tunnel is all a proxy has to do here.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

/** A running test proxy. */
export interface ForwardProxy {
  /** `http://127.0.0.1:<port>` (with `user:password@` when credentials are required). */
  url: string;
  /** The authority (`host:port`) of every tunnel opened, in order; refused ones are not listed. */
  tunnels: string[];
  /** Tunnels refused for missing or wrong credentials (answered 407). */
  refused: number;
  /** Stops listening and drops open tunnels. */
  close(): Promise<void>;
}

/**
 * Starts a tunnelling proxy on an ephemeral loopback port. With `credentials` (`user:password`),
 * a CONNECT without the matching `Proxy-Authorization: Basic …` is answered 407. A request that
 * is not a CONNECT is answered 405: the suite never sends plain forward-proxy requests.
 */
export async function startForwardProxy(credentials?: string): Promise<ForwardProxy> {
  const sockets = new Set<import('node:stream').Duplex>();
  const server: Server = createServer((_req, res) => res.writeHead(405, { 'content-type': 'text/plain' }).end('CONNECT only\n'));
  const state = { tunnels: [] as string[], refused: 0 };
  server.on('connect', (req, client, head) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const expected = credentials ? `Basic ${Buffer.from(credentials).toString('base64')}` : undefined;
    if (expected && req.headers['proxy-authorization'] !== expected) {
      state.refused += 1;
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const authority = req.url ?? '';
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(authority);
    if (!m) {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = connect(Number(m[2]), m[1], () => {
      state.tunnels.push(authority);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'));
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${credentials ? `${credentials}@` : ''}127.0.0.1:${port}`,
    get tunnels() {
      return state.tunnels;
    },
    get refused() {
      return state.refused;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
