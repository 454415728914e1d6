/**
 * §6 routing, §2.3 rules 3–5 and §1: with serverUrl set, events go there (path kept, a bare host
 * to `/`) and not to the tenant-level URL; after serverUrl is cleared they go to the tenant-level
 * URL; setting serverUrl sends no test request; a call keeps the serverUrl it began with.
 *
 * How these tests reach a receiver, make events happen and stay isolated on each target:
 * suites/webhooks/fixture.ts.
 */
import { describe } from 'vitest';
import { clauseTest } from '../../helpers/checks/clause';
import { verifyModelASecret } from '../../helpers/webhooks/verifiers';
import { verifySilence } from '../../helpers/webhooks/watch';
import { hasCapability } from '../../helpers/target/target';
import { type WebhookFixture, REACH, aboutCall } from './fixture';

/** Registers this concern's tests on the webhook file's fixture (suites/webhooks.test.ts: one receiver per run). */
export function routingTests(wh: WebhookFixture): void {
  const { arrival, hook, beginCall, finishCall, hookedAssistant, assistant, setServerUrl, needSecret } = wh;

  describe.concurrent('routing (§6, §2.3 rules 3–5, §1)', () => {
    clauseTest(
      '2.3/patch-no-test-request',
      'a PATCH that sets serverUrl validates it and sends no test request to it',
      async ({ verify }) => {
        const { url, seen } = hook('/r-no-test-request');
        await wh.ifControl()?.routeHosts();
        const a = await assistant('no-test-request');
        await setServerUrl(a.id, url);
        // A test request would follow the PATCH at once; a live target's path through the tunnel is slower.
        const window = hasCapability('control') ? 250 : 2_000;
        await verifySilence(
          verify,
          wh.rx,
          'setting serverUrl sends no request to it',
          () => wh.rx.at(seen),
          window,
          `no request at ${seen} within ${window} ms of the PATCH`,
        );
      },
      { requires: ['receiver'] },
    );

    clauseTest(
      ['6/route-server-url', '2.3/path-kept', verifyModelASecret],
      'with serverUrl set, events go to that URL (path kept) and not to the tenant-level URL',
      async (ctx) => {
        const { verify } = ctx;
        needSecret(ctx);
        const sim = wh.ifControl();
        // On a live tenant the trigger leads the tenant-level URL to the receiver too (docs/event-trigger.md `tenant-url`).
        const events = sim ? undefined : wh.needEvents(ctx);
        const tenant = hook('/t/r-set');
        const own = hook('/integrations/core-api/r-set');
        const a = sim
          ? await sim.routedAssistant('r-set', tenant.seen, `https://${wh.hosts.hooks}${own.seen}`)
          : (await hookedAssistant('r-set', '/integrations/core-api/r-set')).a;
        const routed = async () => {
          const call = await beginCall(a.id);
          const [req] = await arrival(
            verify,
            "assistant-request goes to the assistant's serverUrl, path kept",
            (all) => all.filter((r) => r.path === own.seen && aboutCall(r, call)),
            {
              expected: `a POST to ${own.seen} on the serverUrl host`,
              wrong: (all) => {
                const elsewhere = all.find((r) => r.path !== own.seen && aboutCall(r, call));
                return elsewhere && `delivered to ${elsewhere.path}${elsewhere.path === tenant.seen ? ' (the tenant-level URL)' : ''}`;
              },
            },
          );
          verifyModelASecret(verify, req, wh.secret(), 'assistant-request via serverUrl');
          await finishCall(call);
          await arrival(verify.on('6/route-server-url'), "the end-of-call report goes to the assistant's serverUrl", (all) =>
            all.filter((r) => r.path === own.seen && aboutCall(r, call) && r.seq > req.seq),
          );
          const toTenant = sim ? await sim.deliveriesTo(wh.rx.url(tenant.seen)) : [];
          verify
            .on('6/route-server-url')
            .none('no delivery of this call went to the tenant-level URL', [...wh.rx.at(tenant.seen).filter((r) => aboutCall(r, call)), ...toTenant], 'none');
        };
        if (events) await events.withTenantUrl(wh.world().tenantA.id, tenant.url, routed);
        else await routed();
      },
      REACH,
    );

    clauseTest(
      ['1/call-keeps-server-url', '6/route-server-url'],
      'a call keeps the serverUrl it began with: changing it mid-call does not move that call’s end-of-call report',
      async (ctx) => {
        const verify = ctx.verify.on('1/call-keeps-server-url');
        const before = hook('/r-keep/before');
        const after = hook('/r-keep/after');
        const { a } = await hookedAssistant('r-keep', '/r-keep/before');
        const first = await beginCall(a.id);
        const [start1] = await arrival(
          ctx.verify.on('6/route-server-url'),
          'the first call’s assistant-request reaches the serverUrl',
          (all) => all.filter((r) => r.path === before.seen && aboutCall(r, first)),
          {
            wrong: (all) => (all.some((r) => r.path !== before.seen && aboutCall(r, first)) ? 'delivered elsewhere than the serverUrl' : undefined),
          },
        );
        await setServerUrl(a.id, after.url);
        await finishCall(first);
        const [eoc] = await arrival(verify, 'the first call’s end-of-call report arrives', (all) =>
          all.filter((r) => (r.path === before.seen || r.path === after.seen) && aboutCall(r, first) && r.seq > start1.seq),
        );
        verify.equal('the end-of-call report of a call in progress goes to the serverUrl the call began with', eoc.path, before.seen);
        // A call started after the change must use the new URL: proves the change took effect (one call at a time, as a single test line allows).
        const second = await beginCall(a.id);
        await arrival(ctx.verify.on('6/route-server-url'), 'a call started after the change delivers to the new URL', (all) =>
          all.filter((r) => r.path === after.seen && aboutCall(r, second)),
        );
        await finishCall(second);
      },
      REACH,
    );

    clauseTest(
      ['2.3/unset-tenant-url', '6/route-tenant-url'],
      'after serverUrl is set to null, events go to the tenant-level URL',
      async (ctx) => {
        const { verify } = ctx;
        const sim = wh.ifControl();
        // On a live tenant the trigger leads the tenant-level URL to the receiver (docs/event-trigger.md `tenant-url`).
        const events = sim ? undefined : wh.needEvents(ctx);
        const tenant = hook('/t/r-null');
        const own = hook('/r-null/assistant');
        const a = sim
          ? await sim.routedAssistant('r-null', tenant.seen, `https://${wh.hosts.hooks}${own.seen}`)
          : (await hookedAssistant('r-null', '/r-null/assistant')).a;
        await setServerUrl(a.id, null);
        const routed = async () => {
          const call = await beginCall(a.id);
          await arrival(verify, 'assistant-request reaches the tenant-level URL', (all) => all.filter((r) => r.path === tenant.seen && aboutCall(r, call)), {
            expected: tenant.seen,
            wrong: (all) => (all.some((r) => r.path === own.seen && aboutCall(r, call)) ? `delivered to the cleared serverUrl (${own.seen})` : undefined),
          });
          await finishCall(call);
        };
        if (events) await events.withTenantUrl(wh.world().tenantA.id, tenant.url, routed);
        else await routed();
      },
      REACH,
    );

    clauseTest(
      '2.3/bare-host-root',
      'a serverUrl that is a bare hostname delivers to /',
      async ({ verify }) => {
        // A simulator routes this file's bare host name to the receiver; a live target's public URL's
        // host is bare once its path is dropped, and a tunnel forwards every path, `/` included.
        const sim = wh.ifControl();
        const bare = sim ? wh.hosts.bare : new URL(wh.hook('').url).host;
        await sim?.routeHosts();
        const a = await assistant('r-bare');
        await setServerUrl(a.id, `https://${bare}`);
        const call = await beginCall(a.id);
        const [req] = await arrival(verify, 'assistant-request arrives for the call', (all) => all.filter((r) => aboutCall(r, call)));
        verify.inform(
          'the request came through the bare host name',
          String(req.headers.host ?? '').startsWith(bare),
          `host header ${JSON.stringify(req.headers.host)}`,
        );
        verify.equal('the request path is /', req.path, '/');
        await finishCall(call);
      },
      REACH,
    );
  });
}
