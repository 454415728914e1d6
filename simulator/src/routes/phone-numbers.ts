/**
 * Phone numbers (§1, §4.5): `GET /phone-numbers/available` (provider inventory search),
 * `POST /phone-numbers` (purchase), and the added `GET /phone-numbers` (the caller's numbers) and
 * `DELETE /phone-numbers/{id}` (release; the number then counts as deleted, like the control
 * DELETE). Nothing is billed: this is a simulator.
 *
 * Shapes (not shown): inventory rows `{ number, country, locality, capabilities: { voice, sms } }`;
 * a number `{ id, number, smsEnabled, chatappOnboarded, createdAt }`.
 * - Inventory: a fixed pool of US numbers `+1415555 01xx` minus those any tenant holds. Optional
 *   query `areaCode` (digits after +1) and `contains` (digits) filter it; other parameters are
 *   ignored (search parameters are not shown).
 * - Purchase body `{ number }` (E.164). A number that is not in the current inventory (never was,
 *   or someone holds it) → 400 VALIDATION_ERROR on `number`, one answer for both so another
 *   tenant's holdings are not revealed. A purchased number has SMS enabled and is not onboarded
 *   for the messaging app.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { randomUUID } from 'node:crypto';
import { tenantOf } from '../auth.ts';
import { type ApiError, ok, validationError } from '../envelope.ts';
import { findOwned } from '../resources.ts';
import { seam } from '../seam.ts';
import type { PhoneNumberRecord, SimState } from '../state.ts';
import { isE164, isPlainObject } from '../validation/formats.ts';

/** The provider pool: +14155550100 … +14155550149. */
export const INVENTORY: readonly string[] = Array.from({ length: 50 }, (_, i) => `+1415555${String(100 + i).padStart(4, '0')}`);

function available(state: SimState): string[] {
  const held = new Set([...state.phoneNumbers.values()].filter((p) => !p.deleted).map((p) => p.number));
  return INVENTORY.filter((n) => !held.has(n));
}

/** §2.1, §4.5: the inventory search answers its rows in the success envelope. */
export const inventoryAnswer = seam('org.inventory-answer', (reply: FastifyReply, rows: unknown[]): FastifyReply => ok(reply, rows));

/**
 * §4.5: a purchase of an E.164 `number` is refused only when the inventory does not offer it
 * (`offered` false): 400 VALIDATION_ERROR on `number`. Answers the refusal, or null.
 */
export const purchaseRefusal = seam('org.purchase-refusal', (_number: string, offered: boolean): ApiError | null =>
  offered ? null : validationError([{ field: 'number', message: 'is not available for purchase' }]),
);

function numberView(p: PhoneNumberRecord): Record<string, unknown> {
  return { id: p.id, number: p.number, smsEnabled: p.smsEnabled, chatappOnboarded: p.chatappOnboarded, createdAt: p.createdAt };
}

/** Plugin with the phone-number routes. */
export const phoneNumbersRoutes: FastifyPluginAsync = async (app) => {
  const state = app.sim;

  app.get<{ Querystring: { areaCode?: string; contains?: string } }>('/phone-numbers/available', async (request, reply) => {
    tenantOf(request);
    const { areaCode, contains } = request.query;
    const rows = available(state)
      .filter((n) => typeof areaCode !== 'string' || n.startsWith(`+1${areaCode}`))
      .filter((n) => typeof contains !== 'string' || n.includes(contains))
      .map((number) => ({ number, country: 'US', locality: 'San Francisco', capabilities: { voice: true, sms: true } }));
    return state.behaviour.of(inventoryAnswer)(reply, rows);
  });

  app.get('/phone-numbers', async (request, reply) => {
    const tenantId = tenantOf(request);
    return ok(reply, [...state.phoneNumbers.values()].filter((p) => p.tenantId === tenantId && !p.deleted).map(numberView));
  });

  app.post('/phone-numbers', async (request, reply) => {
    const tenantId = tenantOf(request);
    const body = request.body === undefined ? {} : request.body;
    if (!isPlainObject(body)) throw validationError([{ field: 'body', message: 'must be a JSON object' }]);
    const number = body.number;
    if (!isE164(number)) throw validationError([{ field: 'number', message: 'is required: an E.164 number from GET /phone-numbers/available' }]);
    const refusal = state.behaviour.of(purchaseRefusal)(number, available(state).includes(number));
    if (refusal) throw refusal;
    const rec: PhoneNumberRecord = {
      id: randomUUID(),
      tenantId,
      number,
      smsEnabled: true,
      chatappOnboarded: false,
      deleted: false,
      createdAt: new Date().toISOString(),
    };
    state.phoneNumbers.set(rec.id, rec);
    return ok(reply, numberView(rec), 201);
  });

  app.delete<{ Params: { id: string } }>('/phone-numbers/:id', async (request, reply) => {
    const tenantId = tenantOf(request);
    const live = new Map([...state.phoneNumbers].filter(([, p]) => !p.deleted));
    const rec = findOwned(state, live, tenantId, request.params.id, 'phone-number');
    rec.deleted = true;
    return ok(reply, { id: rec.id, released: true });
  });
};
