/**
 * §5.7 tenant isolation, seen from tenant A: another tenant's resource is indistinguishable from
 * one that never existed (indistinguishable.ts), writes on it answer 404 and change nothing
 * (writes.ts), and lists never show it (lists.ts). The tests are written by concern in
 * suites/cross-tenant/ and registered here on one fixture (suites/cross-tenant/fixture.ts, the
 * route table as data in routes.ts): tenant B's resources are made, or on a live tenant found,
 * once per run and restored once.
 */
import { useCrossTenantFixture } from './cross-tenant/fixture';
import { indistinguishableTests } from './cross-tenant/indistinguishable';
import { listTests } from './cross-tenant/lists';
import { writeTests } from './cross-tenant/writes';

const fixture = useCrossTenantFixture();
indistinguishableTests(fixture);
writeTests(fixture);
listTests(fixture);
