/**
 * Faults of the assistant routes (§2.2 response shape, §4.1, §4.5) and of the cross-tenant
 * answers about an assistant (§5.7): each overrides one seam of routes/assistants.ts or
 * resources.ts. Probes: simulator/test/faults/assistants.test.ts.
 */
import { ApiError, forbidden } from '../envelope.ts';
import { notOwned } from '../resources.ts';
import { created, listed, mergeBase, patchAnswer, shown, written } from '../routes/assistants.ts';
import { override } from '../seam.ts';
import { isPlainObject } from '../validation/formats.ts';
import { storedString } from '../model/assistant.ts';
import { defineFaults } from './define.ts';

/** The assistant route faults, and the cross-tenant faults of assistants. */
export const ASSISTANTS_FAULTS = defineFaults([
  {
    name: 'assistants.text-cut-at-astral',
    clauses: ['4.1/value-reads-back-exactly'],
    description:
      'String values are stored cut at their first character outside the Basic Multilingual Plane (an emoji), as a 3-byte MySQL utf8 column does in non-strict mode; the PATCH is still accepted.',
    override: override(storedString, (next) => (v) => {
      const cut = /[\u{10000}-\u{10FFFF}]/u.exec(v);
      return next(cut ? v.slice(0, cut.index) : v);
    }),
  },
  {
    name: 'assistants.updated-at-missing',
    clauses: ['2.2/response-shape'],
    description: 'The assistant answer (GET, PATCH) lacks updatedAt, one of its 33 required properties.',
    override: override(shown, (next) => (data, where) => {
      const out = next(data, where);
      if (where === 'read' || where === 'patch') delete out.updatedAt;
      return out;
    }),
  },
  {
    name: 'assistants.created-at-text',
    clauses: ['2.2/response-shape'],
    description: 'createdAt is a text ("recently") instead of a date-time, a date, a number or null.',
    override: override(shown, (next) => (data, where) => {
      const out = next(data, where);
      return where === 'read' || where === 'patch' ? { ...out, createdAt: 'recently' } : out;
    }),
  },
  {
    name: 'assistants.feature-flags-strings',
    clauses: ['2.2/response-shape'],
    description: 'featureFlags maps names to strings ("true") instead of booleans.',
    override: override(shown, (next) => (data, where) => {
      const out = next(data, where);
      return where === 'read' || where === 'patch' ? { ...out, featureFlags: { betaVoice: 'true' } } : out;
    }),
  },
  {
    name: 'assistants.transfer-settings-as-string',
    clauses: ['2.5/get-returns-object'],
    description: 'A stored transferSettings document is answered as a JSON string instead of an object.',
    override: override(shown, (next) => (data, where) => {
      const out = next(data, where);
      return (where === 'read' || where === 'patch') && out.transferSettings !== null
        ? { ...out, transferSettings: JSON.stringify(out.transferSettings) }
        : out;
    }),
  },
  {
    name: 'assistants.patch-omits-server-url',
    clauses: ['4.1/response-includes-server-url'],
    description: 'The PATCH answer leaves serverUrl out, so the caller cannot confirm the write.',
    override: override(shown, (next) => (data, where) => {
      const out = next(data, where);
      if (where === 'patch') delete out.serverUrl;
      return out;
    }),
  },
  {
    name: 'assistants.list-without-name',
    clauses: ['4.5/assistants-list'],
    description: 'GET /assistants rows carry id but not name.',
    override: override(shown, (next) => (data, where) => {
      const out = next(data, where);
      if (where === 'list') delete out.name;
      return out;
    }),
  },
  {
    name: 'assistants.patch-returns-stale',
    clauses: ['4.1/patch-returns-updated'],
    description: 'The PATCH answer is the assistant as it was before the write.',
    override: override(patchAnswer, () => (before) => before),
  },
  {
    name: 'assistants.unknown-patch-403',
    clauses: ['4.1/unknown-id-404'],
    description: 'PATCH of an assistant id that never existed answers 403 FORBIDDEN instead of 404 RESOURCE_NOT_FOUND.',
    override: override(written, (next) => (state, tenantId, id) => {
      if (!state.assistants.has(id)) throw forbidden();
      return next(state, tenantId, id);
    }),
  },
  {
    name: 'assistants.create-ignores-transfer-settings',
    clauses: ['4.5/assistant-create-transfer-settings'],
    description: 'POST /assistants accepts transferSettings but does not store it (the created assistant reads null).',
    override: override(created, (next) => (state, body, id, now) => {
      if (!isPlainObject(body)) return next(state, body, id, now);
      const { transferSettings: _dropped, ...rest } = body;
      return next(state, rest, id, now);
    }),
  },
  {
    name: 'xtenant.list-leak',
    clauses: ['5.7/lists-own-tenant-only'],
    description: "GET /assistants with an organization key lists every tenant's assistants of the organization.",
    override: override(
      listed,
      (next) => (state, principal, tenantId) =>
        principal.keyType === 'organization'
          ? [...state.assistants.values()].filter((r) => state.tenants.get(r.tenantId)?.organizationId === principal.organizationId)
          : next(state, principal, tenantId),
    ),
  },
  {
    name: 'xtenant.foreign-assistant-write',
    clauses: ['5.7/no-cross-tenant-write'],
    description: "PATCH /assistants/{id} on another tenant's assistant applies the change and answers 200.",
    override: override(written, (next) => (state, tenantId, id) => {
      const other = state.assistants.get(id);
      return other && other.tenantId !== tenantId ? other : next(state, tenantId, id);
    }),
  },
  {
    name: 'xtenant.foreign-assistant-403',
    clauses: ['5.7/foreign-resource-not-found'],
    description: "Another tenant's assistant answers 403 FORBIDDEN instead of 404 RESOURCE_NOT_FOUND.",
    override: override(notOwned, (next) => (resource, foreign) => (resource === 'assistant' && foreign ? forbidden() : next(resource, foreign))),
  },
  {
    name: 'xtenant.foreign-message-differs',
    clauses: ['5.7/foreign-indistinguishable'],
    description: "Another tenant's assistant answers 404 RESOURCE_NOT_FOUND with a different message than a nonexistent one.",
    override: override(
      notOwned,
      (next) => (resource, foreign) =>
        resource === 'assistant' && foreign ? new ApiError(404, 'RESOURCE_NOT_FOUND', 'Assistant belongs to another tenant') : next(resource, foreign),
    ),
  },
  {
    name: 'assistants.lookup-by-name',
    clauses: ['4.1/path-id-not-name'],
    description:
      "A PATCH's path id is looked up as an id or as a display name (`WHERE id = $1 OR name = $1`), so PATCH /assistants/{name} writes the tenant's assistant of that name.",
    override: override(written, (next) => (state, tenantId, id) => {
      const byName = [...state.assistants.values()].find((r) => r.tenantId === tenantId && r.data.name === id);
      return byName ?? next(state, tenantId, id);
    }),
  },
  {
    name: 'assistants.patch-lost-update',
    clauses: ['4.1/omitted-unchanged'],
    description:
      'A PATCH reads the stored assistant, awaits, then writes the whole row merged from what it read (read-modify-write without a lock): of two PATCHes sent at once on different fields, the later write undoes the other.',
    override: override(mergeBase, () => async (read) => {
      await new Promise<void>((resolve) => setTimeout(resolve, 25));
      return read;
    }),
  },
]);
