/**
 * Events the suite makes happen: calls started and ended, text conversations started and ended,
 * onboarding events (§6). On a simulator they are caused through the control API
 * (docs/control-api.md); on a live tenant through the operator's trigger, `CORE_API_EVENT_TRIGGER`
 * (docs/event-trigger.md), a command or a URL answering one JSON request at a time. A kind
 * the trigger cannot cause throws {@link EventUnsupportedError}, which skips the test with the
 * trigger's reason (helpers/checks/clause.ts).
 */
import { spawn } from 'node:child_process';
import { request } from 'undici';
import { ControlClient, ControlError } from './control';
import { announceOutsideWrite } from '../base/outside-writes';
import { EVENT_UNSUPPORTED_NAME } from '../base/error-names';
import { redact, registerUrlCredentials } from '../base/redact';
import { getTarget, isTriggerUrl, type TargetConfig } from './target';
import { suiteDispatcher } from '../http/proxy';

/** A trigger URL is reached as the target is: through the proxy HTTPS_PROXY names, unless NO_PROXY exempts it (helpers/http/proxy.ts). */
let triggerDispatcher: ReturnType<typeof suiteDispatcher> | undefined;

/** Messaging channels a conversation can be started on (§1: web chat, SMS, messaging app). */
export type Channel = 'sms' | 'web' | 'chatapp';

/**
 * One request to the trigger, by `kind` (docs/event-trigger.md):
 * - `start-call`: a voice call to the assistant (its number), from one of the operator's test lines;
 * - `end-call`: end that call (one the trigger started), the supervisor (the callee) answering or not;
 * - `start-conversation` / `end-conversation`: a text conversation with the assistant on a channel;
 * - `onboarding`: a messaging-app onboarding event of tenant `tenantId`, of `type`, delivered to
 *   `deliverTo` (the tenant-level server URL must lead there, §6);
 * - `tool-invocation`: during a call the suite started, the assistant invokes one of the suite's tools (§6);
 * - `agent-absent`: on a live call the suite started, the assistant is briefly away (`absent: true`)
 *   or back (`absent: false`) (§3: takeover and end answer 409 `agent_absent` meanwhile);
 * - `delete-call`: a call the suite started is deleted (§7 exception 2: its routes answer a bare 404);
 * - `tenant-url`: the tenant's tenant-level server URL leads to `deliverTo` (§6), as onboarding needs.
 * Each of the last four is optional: a trigger answers `unsupported` and the tests skip naming it.
 */
export type EventRequest =
  | { kind: 'start-call'; tenantId: string; assistantId: string }
  | { kind: 'end-call'; tenantId: string; callId: string; supervisorAnswered: boolean }
  | { kind: 'start-conversation'; tenantId: string; assistantId: string; channel: Channel }
  | { kind: 'end-conversation'; tenantId: string; conversationId: string }
  | { kind: 'onboarding'; tenantId: string; type: string; deliverTo: string }
  | { kind: 'tool-invocation'; tenantId: string; callId: string; toolId: string }
  | { kind: 'agent-absent'; tenantId: string; callId: string; absent: boolean }
  | { kind: 'delete-call'; tenantId: string; callId: string }
  | { kind: 'tenant-url'; tenantId: string; deliverTo: string };

/** Kinds of {@link EventRequest}. */
export type EventKind = EventRequest['kind'];

/** A call the suite caused: `id` is the call id of §4.5 paths; `customerNumber` the line that called (E.164), when known. */
export interface StartedCall {
  id: string;
  callId?: string;
  customerNumber?: string;
}

/** A conversation the suite caused; `customerIdentifier` is the customer side (a number or a visitor id), when known. */
export interface StartedConversation {
  id: string;
  customerIdentifier?: string;
}

/** Thrown when the event source cannot cause a kind of event; the test skips with `message`. */
export class EventUnsupportedError extends Error {
  constructor(
    readonly kind: EventKind,
    reason: string,
  ) {
    super(redact(`not applicable to this target: the event trigger cannot cause ${kind}: ${reason}`));
    this.name = EVENT_UNSUPPORTED_NAME;
  }
}

/** Causes events; every method throws {@link EventUnsupportedError} for a kind it cannot cause, ControlError on failure. */
export interface Events {
  /** Where events come from, for messages: `control API` or `trigger`. */
  readonly source: 'control API' | 'trigger';
  startCall(tenantId: string, assistantId: string): Promise<StartedCall>;
  /**
   * Ends a call, the supervisor answering or not. Resolves with what really happened when the
   * source says (a trigger that cannot make a supervisor answer may end the call without one).
   */
  endCall(tenantId: string, call: StartedCall, supervisorAnswered: boolean): Promise<{ supervisorAnswered?: boolean }>;
  startConversation(tenantId: string, assistantId: string, channel: Channel): Promise<StartedConversation>;
  endConversation(tenantId: string, conversationId: string): Promise<void>;
  /**
   * An onboarding event of `type` (§6 model B). On a simulator the test has already pointed the
   * tenant-level server URL at `deliverTo` through the control API; a trigger must make the event reach it.
   * @returns the delivery id when the source knows it
   */
  onboarding(tenantId: string, type: string, deliverTo: string): Promise<{ deliveryId?: string }>;
  /** During `call` (one the suite started), the assistant invokes the suite's tool `toolId` (§6 tool invocation event). */
  toolInvocation(tenantId: string, call: StartedCall, toolId: string): Promise<void>;
  /** On `call` (live, one the suite started), the assistant is away (`true`) or back (`false`) (§3 `agent_absent`). */
  agentAbsent(tenantId: string, call: StartedCall, absent: boolean): Promise<void>;
  /** Deletes `call` (one the suite started; §7 exception 2). A deleted call is never asked to end. */
  deleteCall(tenantId: string, call: StartedCall): Promise<void>;
  /**
   * Runs `during` while the tenant-level server URL of `tenantId` leads to `deliverTo` (§6): on a
   * simulator it is pointed there and back to none after; a trigger points it there (or it already
   * leads there) and leaves it, as for onboarding. No onboarding request of this source runs meanwhile.
   * @returns what `during` returns
   */
  withTenantUrl<T>(tenantId: string, deliverTo: string, during: () => Promise<T>): Promise<T>;
}

/** A distinct E.164 number per call of this process, in the 555-01xx fiction range. */
let numberSeq = 0;
function fictionNumber(): string {
  numberSeq += 1;
  return `+1555011${String(1000 + (numberSeq % 1000)).slice(-4)}`;
}

/** Events caused through a simulator's control API. */
export class ControlEvents implements Events {
  readonly source = 'control API' as const;
  constructor(private readonly control: ControlClient) {}

  async startCall(tenantId: string, assistantId: string): Promise<StartedCall> {
    const customerNumber = fictionNumber();
    const c = await this.control.startCall({ tenantId, assistantId, customerNumber });
    return { id: c.id, callId: c.callId, customerNumber };
  }
  async endCall(_tenantId: string, call: StartedCall, supervisorAnswered: boolean): Promise<{ supervisorAnswered?: boolean }> {
    await this.control.endCall(call.id, { supervisorAnswered });
    return { supervisorAnswered };
  }
  async startConversation(tenantId: string, assistantId: string, channel: Channel): Promise<StartedConversation> {
    const customerIdentifier = channel === 'web' ? `visitor-${numberSeq++}-${process.pid}` : fictionNumber();
    const c = await this.control.conversation({ tenantId, assistantId, channel, customerIdentifier });
    return { id: c.id, customerIdentifier };
  }
  async endConversation(_tenantId: string, conversationId: string): Promise<void> {
    await this.control.endConversation(conversationId);
  }
  async onboarding(tenantId: string, type: string): Promise<{ deliveryId?: string }> {
    return this.control.onboardingEvent({ tenantId, type });
  }
  async toolInvocation(_tenantId: string, call: StartedCall, toolId: string): Promise<void> {
    await this.control.toolInvocation({ callId: call.id, toolId });
  }
  async agentAbsent(_tenantId: string, call: StartedCall, absent: boolean): Promise<void> {
    await this.control.agentAbsent(call.id, absent);
  }
  /** Not in the control contract (docs/control-api.md lists `DELETE /__control/calls/{id}` as this simulator's addition): a simulator without it cannot delete. */
  async deleteCall(_tenantId: string, call: StartedCall): Promise<void> {
    try {
      await this.control.send('DELETE', `/calls/${encodeURIComponent(call.id)}`);
    } catch (e) {
      throw new EventUnsupportedError(
        'delete-call',
        `its control API cannot delete a call (DELETE /__control/calls/{id}: ${(e as Error).message.slice(0, 120)})`,
      );
    }
  }
  async withTenantUrl<T>(tenantId: string, deliverTo: string, during: () => Promise<T>): Promise<T> {
    await this.control.tenantServerUrl(tenantId, deliverTo);
    try {
      return await during();
    } finally {
      await this.control.tenantServerUrl(tenantId, null).catch(() => undefined);
    }
  }
}

/** How long one trigger request may take before it counts as failed, ms (a real call takes seconds to connect). */
export const TRIGGER_TIMEOUT_MS = 60_000;

/**
 * Events caused by the operator's trigger. Requests of one kind that the trigger said it cannot
 * cause are not sent again. Onboarding requests are sent one at a time: a trigger may have to point
 * the tenant-level URL at `deliverTo` before causing the event, and two at once would race.
 */
export class TriggerEvents implements Events {
  readonly source = 'trigger' as const;
  private readonly unsupported = new Map<EventKind, string>();
  private onboardingQueue: Promise<unknown> = Promise.resolve();

  /** @param trigger a shell command (JSON request on stdin, JSON answer on stdout), or an https URL or a loopback http URL (JSON POST). */
  constructor(
    readonly trigger: string,
    private readonly timeoutMs = TRIGGER_TIMEOUT_MS,
  ) {
    // A trigger URL's user, password and query values (a hook's token) never reach a message.
    registerUrlCredentials(trigger, 'CORE_API_EVENT_TRIGGER');
  }

  async startCall(tenantId: string, assistantId: string): Promise<StartedCall> {
    const a = await this.ask({ kind: 'start-call', tenantId, assistantId });
    return { id: idField(a, 'id', 'start-call'), callId: optionalString(a.callId), customerNumber: optionalString(a.customerNumber) };
  }
  async endCall(tenantId: string, call: StartedCall, supervisorAnswered: boolean): Promise<{ supervisorAnswered?: boolean }> {
    const a = await this.ask({ kind: 'end-call', tenantId, callId: call.id, supervisorAnswered });
    return typeof a.supervisorAnswered === 'boolean' ? { supervisorAnswered: a.supervisorAnswered } : {};
  }
  async startConversation(tenantId: string, assistantId: string, channel: Channel): Promise<StartedConversation> {
    const a = await this.ask({ kind: 'start-conversation', tenantId, assistantId, channel });
    return { id: idField(a, 'id', 'start-conversation'), customerIdentifier: optionalString(a.customerIdentifier) };
  }
  async endConversation(tenantId: string, conversationId: string): Promise<void> {
    await this.ask({ kind: 'end-conversation', tenantId, conversationId });
  }
  onboarding(tenantId: string, type: string, deliverTo: string): Promise<{ deliveryId?: string }> {
    return this.tenantLevel(async () => {
      const a = await this.ask({ kind: 'onboarding', tenantId, type, deliverTo });
      return { deliveryId: optionalString(a.deliveryId) };
    });
  }
  async toolInvocation(tenantId: string, call: StartedCall, toolId: string): Promise<void> {
    await this.ask({ kind: 'tool-invocation', tenantId, callId: call.id, toolId });
  }
  async agentAbsent(tenantId: string, call: StartedCall, absent: boolean): Promise<void> {
    await this.ask({ kind: 'agent-absent', tenantId, callId: call.id, absent });
  }
  async deleteCall(tenantId: string, call: StartedCall): Promise<void> {
    await this.ask({ kind: 'delete-call', tenantId, callId: call.id });
  }
  withTenantUrl<T>(tenantId: string, deliverTo: string, during: () => Promise<T>): Promise<T> {
    return this.tenantLevel(async () => {
      await this.ask({ kind: 'tenant-url', tenantId, deliverTo });
      return during();
    });
  }

  /** Runs `fn` after every earlier step that needs the tenant-level server URL (onboarding, `withTenantUrl`): one at a time, so none moves it under another. */
  private tenantLevel<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.onboardingQueue.then(fn);
    this.onboardingQueue = run.catch(() => undefined);
    return run;
  }

  /**
   * Sends one request and reads the answer.
   * @throws EventUnsupportedError when the answer is `{ "unsupported": "<reason>" }`; ControlError
   *   when the trigger fails, times out or answers something that is not a JSON object.
   */
  async ask(req: EventRequest): Promise<Record<string, unknown>> {
    // The operator's trigger may write anything on the tenant: announced, so the audits forget what they knew of assistants.
    announceOutsideWrite({ via: 'trigger' });
    const known = this.unsupported.get(req.kind);
    if (known !== undefined) throw new EventUnsupportedError(req.kind, known);
    const text = isTriggerUrl(this.trigger) ? await this.post(req) : await this.run(req);
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      throw new ControlError(`event trigger (${req.kind}) answered no JSON: ${text.slice(0, 300)}`);
    }
    if (!answer || typeof answer !== 'object' || Array.isArray(answer)) {
      throw new ControlError(`event trigger (${req.kind}) answered ${text.slice(0, 300)}, not a JSON object`);
    }
    const a = answer as Record<string, unknown>;
    if (typeof a.unsupported === 'string') {
      const reason = a.unsupported.trim() || 'no reason given';
      this.unsupported.set(req.kind, reason);
      throw new EventUnsupportedError(req.kind, reason);
    }
    if (typeof a.error === 'string') throw new ControlError(`event trigger (${req.kind}) failed: ${a.error.slice(0, 300)}`);
    return a;
  }

  private async post(req: EventRequest): Promise<string> {
    try {
      const res = await request(this.trigger, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(req),
        dispatcher: (triggerDispatcher ??= suiteDispatcher()),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new ControlError(`event trigger (${req.kind}) answered HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
      return text;
    } catch (e) {
      if (e instanceof ControlError) throw e;
      throw new ControlError(`event trigger (${req.kind}): no answer (${(e as Error).message})`);
    }
  }

  private run(req: EventRequest): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.trigger, { shell: true, stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      const timer = setTimeout(() => {
        child.kill('SIGTERM');
        reject(new ControlError(`event trigger (${req.kind}) gave no answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(new ControlError(`event trigger (${req.kind}) could not start: ${e.message}`));
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(out);
        else reject(new ControlError(`event trigger (${req.kind}) exited ${code}: ${(err || out).slice(-300)}`));
      });
      child.stdin.end(JSON.stringify(req));
    });
  }
}

function idField(a: Record<string, unknown>, field: string, kind: EventKind): string {
  const v = a[field];
  if (typeof v !== 'string' || v.length === 0)
    throw new ControlError(`event trigger (${kind}) answered without a string \`${field}\`: ${JSON.stringify(a).slice(0, 300)}`);
  return v;
}

function optionalString(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/**
 * The event source of a target: its control API on a simulator, the trigger on a live tenant
 * with `CORE_API_EVENT_TRIGGER`, else none.
 */
export function eventsFor(target: TargetConfig = getTarget(), control?: ControlClient): Events | undefined {
  if (target.capabilities.control && target.controlUrl) return new ControlEvents(control ?? new ControlClient(target.controlUrl));
  if (target.trigger) return new TriggerEvents(target.trigger);
  return undefined;
}
