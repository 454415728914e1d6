/**
 * §6 webhooks (and §2.3's routing rules, §1's missed calls): one test file, one receiver. The
 * tests are written by concern in suites/webhooks/ — model A's shared-secret header
 * (model-a.ts), model B's HMAC signature (model-b.ts), retries and what a failed delivery leaves
 * (retries.ts), where events go (routing.ts; as model state over sequences, routing-model.ts), every way a call or thread ends (end-paths.ts) — and registered here on one fixture
 * (suites/webhooks/fixture.ts): on a live tenant the public URL forwards to one port, so the
 * receiver cannot be split across files that run at once.
 */
import { useWebhookFixture } from './webhooks/fixture';
import { modelATests } from './webhooks/model-a';
import { modelBTests } from './webhooks/model-b';
import { retryTests } from './webhooks/retries';
import { routingTests } from './webhooks/routing';
import { routingModelTests } from './webhooks/routing-model';
import { endPathTests } from './webhooks/end-paths';

const wh = useWebhookFixture();
// Consecutive describe.concurrent blocks run at once: the retries first, whose schedule test waits
// longest (its backoff is judged by ratios with a busy machine's slack, helpers/webhooks/timing.ts).
retryTests(wh);
modelATests(wh);
modelBTests(wh);
routingTests(wh);
endPathTests(wh);
// Last, after the timed tests above: its sequences of calls would load the runner while the retry schedule is timed.
routingModelTests(wh);
