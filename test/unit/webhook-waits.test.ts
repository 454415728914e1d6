/**
 * The named waiters of helpers/webhooks/waits.ts: the arrival picks end a wait exactly when the
 * stated number of attempts (per event) came, followRetries stops at the first silent window, and
 * routedArrival tells an expected delivery from one that went elsewhere, and both from none.
 */
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { atLeastAttempts, eachEventAttempted, followRetries, routedArrival } from '../../helpers/webhooks/waits';
import { WebhookReceiver, type ReceivedRequest } from '../../helpers/webhooks/receiver';
import { HEADER_DELIVERY } from '../../helpers/webhooks/verify';

/** A received request with a delivery id, as the receiver records it. */
function attempt(seq: number, deliveryId: string): ReceivedRequest {
  return {
    seq,
    method: 'POST',
    path: '/p',
    headers: { [HEADER_DELIVERY]: deliveryId },
    rawHeaders: [],
    body: Buffer.from('{}'),
    arrivedAtMs: seq * 10,
    arrivedAtEpochMs: seq * 10,
  };
}

describe('webhook waiters', () => {
  it('atLeastAttempts picks all attempts once there are n, else goes on waiting', () => {
    const all = [attempt(1, 'a'), attempt(2, 'a')];
    expect(atLeastAttempts(3, (x) => x)(all)).toBe(false);
    expect(atLeastAttempts(2, (x) => x)(all)).toEqual(all);
  });

  it('eachEventAttempted waits until every event (delivery id) came often enough', () => {
    const some = [attempt(1, 'a'), attempt(2, 'b'), attempt(3, 'a')];
    expect(eachEventAttempted(2, 2, (x) => x)(some)).toBe(false);
    expect(eachEventAttempted(3, 1, (x) => x)(some)).toBe(false);
    const all = [...some, attempt(4, 'b')];
    expect(eachEventAttempted(2, 2, (x) => x)(all)).toEqual(all);
  });

  it('followRetries ends at the first window in which no attempt comes', async () => {
    const rx = await WebhookReceiver.start();
    try {
      const started = performance.now();
      const got = await followRetries(rx, () => [attempt(1, 'a')], { retryBaseMs: undefined, unknownFirstWaitMs: 50 });
      expect(got).toHaveLength(1);
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      await rx.close();
    }
  });

  it('routedArrival says whether the delivery came where expected, went elsewhere, or did not come', async () => {
    const rx = await WebhookReceiver.start();
    try {
      const at = (path: string) => (all: ReceivedRequest[]) => all.filter((r) => r.path === path);
      await request(rx.url('/right'), { method: 'POST', body: '{}' }).then((r) => r.body.dump());
      expect(await routedArrival(rx, at('/right'), (all) => at('/wrong')(all)[0], 1_000, 'a delivery')).toMatchObject({ kind: 'arrived' });
      await request(rx.url('/wrong'), { method: 'POST', body: '{}' }).then((r) => r.body.dump());
      expect(await routedArrival(rx, at('/right'), (all) => at('/wrong')(all)[0], 1_000, 'a delivery')).toMatchObject({ kind: 'wrong' });
      expect(await routedArrival(rx, at('/never'), () => undefined, 50, 'a delivery')).toMatchObject({ kind: 'none' });
    } finally {
      await rx.close();
    }
  });
});
