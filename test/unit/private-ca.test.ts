/**
 * A private certificate authority (docs/live-tenants.md, "Reaching staging from a CI runner"): a CA made at test time with openssl
 * signs the certificate of a TLS front before a simulator mounted under /core. Without
 * NODE_EXTRA_CA_CERTS the probe stops on the untrusted certificate and names that variable as the
 * fix. A whole run with the variable set is test/integration/reach.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeTarget } from '../../helpers/target/probe';
import { startSimulator, type RunningSimulator } from '../../simulator/src/server';
import { hasOpenssl, makePrivateCa, startTlsFront, type PrivateCa, type TlsFront } from '../support/tls';

describe.skipIf(!hasOpenssl())('a private CA (needs the openssl command)', () => {
  let sim: RunningSimulator;
  let ca: PrivateCa;
  let front: TlsFront;
  let baseUrl: string;

  beforeAll(async () => {
    ca = makePrivateCa();
    sim = await startSimulator({ pathPrefix: '/core' });
    front = await startTlsFront(ca, Number(new URL(sim.origin).port));
    baseUrl = `https://localhost:${front.port}/core`;
  });
  afterAll(async () => {
    await front?.close();
    await sim?.close();
  });

  it('without NODE_EXTRA_CA_CERTS, the probe stops on the untrusted certificate and names the fix', async () => {
    const r = await probeTarget(baseUrl);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.attempts).toBe(1);
    expect(r.cause).toMatch(
      new RegExp(
        `^the TLS certificate of localhost:${front.port} is not trusted \\((UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN)\\)$`,
      ),
    );
    expect(r.fix).toMatch(/NODE_EXTRA_CA_CERTS=<its PEM file>/);
  });
});
