/**
 * Audit "immediately" (§5.4, §5.6): once a key is rotated away or a tenant removed, the old
 * credential is refused on the very next request and every one after, however many rotations.
 * Judged on every request that carries a credential the ledger knows to be revoked
 * (helpers/target/principals.ts): any answer but a 2xx is a refusal (the status is the business of
 * the tests of §5.6, which accept every careful reading); a 2xx fails.
 */
import type { ApiResponse, SentRequest } from '../http/client';
import { statusLine } from '../base/exchange';
import { judged, type AuditDefinition } from './audit';
import { revocation } from '../target/principals';

/** The audit's name and clauses. */
export const REVOKED_AUDIT: AuditDefinition = {
  name: 'revoked credentials refused',
  clauses: ['5.4/rotated-key-invalid', '5.6/removed-tenant-key-refused', '5.6/403-removed-tenant'],
  invariant: 'a key rotated away, or a removed tenant named by any key, is refused on every request after the change',
};

/** Observes one request (helpers/http/client.ts `onRequest`). */
export function auditRevoked(sent: SentRequest): (answer: ApiResponse | undefined) => void {
  const why = revocation(sent.credentials?.key, sent.credentials?.tenantId);
  if (!why) return () => undefined;
  return (answer) => {
    if (!answer) return;
    const accepted = answer.status >= 200 && answer.status < 300;
    judged(REVOKED_AUDIT, why.clause, !accepted, `${why.words} is refused`, {
      expected: 'a refusal (401 or 403)',
      actual: `${sent.method} ${sent.path.split('?')[0]} with ${why.words}: ${statusLine(answer)}`,
    });
  };
}
