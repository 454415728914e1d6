/**
 * Regenerates test/vectors/webhook-signatures.json (run: `npx tsx test/vectors/generate-webhook-signatures.ts`).
 * Expected headers are computed here with node:crypto directly (not with helpers/webhooks/verify.ts),
 * and the unit test cross-checks every one against @octokit/webhooks-methods.
 * Serves §6 Model A rule 1 and Model B rules 1–2.
 */
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const SECRET = 'css_vector_7f3a9c1e5b2d4068a1c3e5f7091b2d4f';
const OTHER_SECRET = 'css_vector_0000000000000000000000000000000';

const hmac = (body: Buffer, secret: string) => createHmac('sha256', secret).update(body).digest('hex');
const b64 = (b: Buffer) => b.toString('base64');

// A body formatted the way a re-serialisation would change: indentation, a space before a colon,
// non-ASCII text, an escaped slash, a float with a trailing zero, a trailing newline.
const formatted = Buffer.from(
  '{\n  "type" : "chatapp.onboarding.completed",\n  "tenant_id": "3f0c2a9e-8d5b-4c1e-9a7f-2b6d4e8c0a13",\n' +
    '  "display_name": "Caf\u00e9 M\u00fcller \ud83d\udcde",\n  "url": "https:\\/\\/example.com\\/x",\n  "score": 1.50\n}\n',
  'utf8',
);
const compact = Buffer.from('{"type":"chatapp.onboarding.tier_pending","tenant_id":"3f0c2a9e-8d5b-4c1e-9a7f-2b6d4e8c0a13"}', 'utf8');
const empty = Buffer.alloc(0);
const binary = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x00, 0x22, 0x7d]); // not valid UTF-8

const sig = (b: Buffer, s = SECRET) => `sha256=${hmac(b, s)}`;
const good = sig(formatted);
const reserialised = Buffer.from(JSON.stringify(JSON.parse(formatted.toString('utf8'))), 'utf8');
const whitespace = Buffer.from(formatted.toString('utf8').replace('"type" :', '"type":'), 'utf8');
const noNewline = formatted.subarray(0, formatted.length - 1);

interface B {
  name: string;
  bodyBase64: string;
  secret: string;
  header: string | null;
  expect: string;
  note?: string;
}
const modelB: B[] = [
  { name: 'formatted body', bodyBase64: b64(formatted), secret: SECRET, header: good, expect: 'ok' },
  { name: 'compact body', bodyBase64: b64(compact), secret: SECRET, header: sig(compact), expect: 'ok' },
  { name: 'empty body', bodyBase64: b64(empty), secret: SECRET, header: sig(empty), expect: 'ok' },
  {
    name: 'bytes that are not UTF-8',
    bodyBase64: b64(binary),
    secret: SECRET,
    header: sig(binary),
    expect: 'ok',
    note: 'the HMAC is over bytes, never over decoded text',
  },
  {
    name: 'uppercase hex digits',
    bodyBase64: b64(formatted),
    secret: SECRET,
    header: `sha256=${hmac(formatted, SECRET).toUpperCase()}`,
    expect: 'ok',
    note: 'decision: hex case carries no meaning; the spec shows <hex> without a case, so a receiver accepts both',
  },
  {
    name: 'surrounding whitespace in the header value',
    bodyBase64: b64(formatted),
    secret: SECRET,
    header: ` ${good} `,
    expect: 'ok',
    note: 'HTTP strips optional whitespace around field values',
  },
  { name: 'body re-serialised (JSON.parse then JSON.stringify)', bodyBase64: b64(reserialised), secret: SECRET, header: good, expect: 'mismatch' },
  { name: 'whitespace changed inside the body', bodyBase64: b64(whitespace), secret: SECRET, header: good, expect: 'mismatch' },
  { name: 'trailing newline dropped', bodyBase64: b64(noNewline), secret: SECRET, header: good, expect: 'mismatch' },
  { name: 'wrong secret', bodyBase64: b64(formatted), secret: SECRET, header: sig(formatted, OTHER_SECRET), expect: 'mismatch' },
  { name: 'missing sha256= prefix', bodyBase64: b64(formatted), secret: SECRET, header: hmac(formatted, SECRET), expect: 'wrong-prefix' },
  {
    name: 'uppercase SHA256= prefix',
    bodyBase64: b64(formatted),
    secret: SECRET,
    header: `SHA256=${hmac(formatted, SECRET)}`,
    expect: 'wrong-prefix',
    note: 'the prefix is the literal token the spec shows',
  },
  { name: 'another algorithm prefix', bodyBase64: b64(formatted), secret: SECRET, header: `sha1=${hmac(formatted, SECRET)}`, expect: 'wrong-prefix' },
  { name: 'truncated signature (62 digits)', bodyBase64: b64(formatted), secret: SECRET, header: good.slice(0, -2), expect: 'length' },
  { name: 'truncated signature (63 digits)', bodyBase64: b64(formatted), secret: SECRET, header: good.slice(0, -1), expect: 'length' },
  { name: 'signature with an extra digit', bodyBase64: b64(formatted), secret: SECRET, header: `${good}0`, expect: 'length' },
  { name: 'prefix only', bodyBase64: b64(formatted), secret: SECRET, header: 'sha256=', expect: 'length' },
  { name: 'non-hex digit', bodyBase64: b64(formatted), secret: SECRET, header: `${good.slice(0, -1)}g`, expect: 'bad-hex' },
  { name: 'empty header', bodyBase64: b64(formatted), secret: SECRET, header: '', expect: 'missing-header' },
  { name: 'no header', bodyBase64: b64(formatted), secret: SECRET, header: null, expect: 'missing-header' },
];

interface A {
  name: string;
  secret: string;
  header: string | null;
  expect: string;
  note?: string;
}
const modelA: A[] = [
  { name: 'the client server secret verbatim', secret: SECRET, header: SECRET, expect: 'ok' },
  { name: 'another secret', secret: SECRET, header: OTHER_SECRET, expect: 'mismatch' },
  { name: 'the secret in another case', secret: SECRET, header: SECRET.toUpperCase(), expect: 'mismatch', note: 'verbatim means byte for byte' },
  { name: 'a prefix of the secret', secret: SECRET, header: SECRET.slice(0, 10), expect: 'mismatch' },
  { name: 'the secret with a scheme word', secret: SECRET, header: `Bearer ${SECRET}`, expect: 'mismatch' },
  { name: 'empty header', secret: SECRET, header: '', expect: 'missing-header' },
  { name: 'no header', secret: SECRET, header: null, expect: 'missing-header' },
];

const doc = {
  $comment:
    'Webhook verification vectors (§6). Generated by test/vectors/generate-webhook-signatures.ts with node:crypto; ' +
    'checked by test/unit/webhook-verify.test.ts against helpers/webhooks/verify.ts and cross-checked with @octokit/webhooks-methods. ' +
    'modelB: bodyBase64 is the raw body, header the X-Service-Signature value (null: absent), expect "ok" or the failure reason. ' +
    'modelA: header is the x-service-core-secret value. The secrets are test values, not credentials.',
  modelB,
  modelA,
};
const out = join(dirname(fileURLToPath(import.meta.url)), 'webhook-signatures.json');
writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
console.log(`wrote ${modelB.length} model B and ${modelA.length} model A vectors to ${out}`);
