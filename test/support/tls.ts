/**
 * A private certificate authority made at test time with the `openssl` command (a CA and a
 * server certificate for `localhost` and 127.0.0.1, valid for one day, in a temporary folder),
 * and a TLS front that terminates TLS with it and passes the bytes on to a plain-HTTP server: what
 * a staging host behind a company CA looks like to the suite.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { scratchDir } from './scratch';

/** Files of a private CA: the CA certificate (what NODE_EXTRA_CA_CERTS names) and a server key pair it signed. */
export interface PrivateCa {
  /** Path of the CA certificate (PEM). */
  caFile: string;
  /** Server certificate (PEM) for DNS:localhost and IP:127.0.0.1, signed by the CA. */
  cert: string;
  /** Server private key (PEM). */
  key: string;
}

/** Whether the `openssl` command is installed (the tests that need a CA skip without it, saying so). */
export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Makes a CA and a server certificate in a fresh temporary folder (P-256 keys, one day). @throws when openssl fails. */
export function makePrivateCa(): PrivateCa {
  const dir = scratchDir('private-ca-');
  const f = (name: string) => join(dir, name);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  ssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    f('ca.key'),
    '-out',
    f('ca.pem'),
    '-days',
    '1',
    '-subj',
    '/CN=conformance test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  ssl('req', ...ec, '-keyout', f('server.key'), '-out', f('server.csr'), '-subj', '/CN=localhost');
  writeFileSync(f('server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  ssl(
    'x509',
    '-req',
    '-in',
    f('server.csr'),
    '-CA',
    f('ca.pem'),
    '-CAkey',
    f('ca.key'),
    '-CAcreateserial',
    '-out',
    f('server.pem'),
    '-days',
    '1',
    '-extfile',
    f('server.ext'),
  );
  return { caFile: f('ca.pem'), cert: readFileSync(f('server.pem'), 'utf8'), key: readFileSync(f('server.key'), 'utf8') };
}

/** A running TLS front: its port, and a close that drops open connections. */
export interface TlsFront {
  port: number;
  close(): Promise<void>;
}

/** Terminates TLS with the CA's server certificate on an ephemeral loopback port and pipes each connection to `upstreamPort` on 127.0.0.1. */
export async function startTlsFront(ca: PrivateCa, upstreamPort: number): Promise<TlsFront> {
  const open = new Set<{ destroy(): void }>();
  const server: Server = createServer({ key: ca.key, cert: ca.cert }, (client) => {
    const upstream = connect(upstreamPort, '127.0.0.1');
    open.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
