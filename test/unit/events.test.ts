/**
 * The event trigger contract (docs/event-trigger.md) as the suite reads it: one JSON request on a
 * command's stdin, one JSON answer on its stdout; `unsupported` skips (and is remembered per kind),
 * `error`, a non-zero exit or non-JSON output are trigger failures (ControlError: an `error` verdict).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { EventUnsupportedError, TriggerEvents } from '../../helpers/target/events';
import { ControlError } from '../../helpers/target/control';
import { readTargetConfig } from '../../helpers/target/target';
import { redact } from '../../helpers/base/redact';
import { clauseTest } from '../../helpers/checks/clause';
import { scratchDir } from '../support/scratch';

const dir = scratchDir('trigger-');

/** A trigger command: a node script that logs each request to a file and answers with `answer(req)` (JS source). */
function trigger(answer: string): { command: string; log: string } {
  const log = join(dir, `log-${Math.random().toString(36).slice(2)}.jsonl`);
  const file = join(dir, `t-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    file,
    `import { appendFileSync } from 'node:fs';
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  const req = JSON.parse(input);
  appendFileSync(${JSON.stringify(log)}, JSON.stringify(req) + '\\n');
  const out = (${answer})(req);
  if (typeof out === 'number') process.exit(out);
  process.stdout.write(typeof out === 'string' ? out : JSON.stringify(out));
});
`,
  );
  return { command: `"${process.execPath}" "${file}"`, log };
}

function requests(log: string): any[] {
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('event trigger (command form)', () => {
  it('sends the request on stdin and reads the ids from stdout', async () => {
    const t = trigger(`(req) => req.kind === 'start-call' ? { id: 'call-1', callId: 'corr-1', customerNumber: '+15550100001' } : {}`);
    const events = new TriggerEvents(t.command);
    const call = await events.startCall('tenant-a', 'assistant-1');
    expect(call).toEqual({ id: 'call-1', callId: 'corr-1', customerNumber: '+15550100001' });
    await events.endCall('tenant-a', call, true);
    expect(requests(t.log)).toEqual([
      { kind: 'start-call', tenantId: 'tenant-a', assistantId: 'assistant-1' },
      { kind: 'end-call', tenantId: 'tenant-a', callId: 'call-1', supervisorAnswered: true },
    ]);
  });

  it('an unsupported kind throws EventUnsupportedError with the reason, and is not asked again', async () => {
    const t = trigger(`(req) => req.kind === 'onboarding' ? { unsupported: 'no sandbox account' } : { id: 'c-1' }`);
    const events = new TriggerEvents(t.command);
    await expect(events.onboarding('tenant-a', 'chatapp.onboarding.completed', 'https://hooks.example.test/x')).rejects.toThrow(EventUnsupportedError);
    const second = await events.onboarding('tenant-a', 'chatapp.calling.live', 'https://hooks.example.test/y').catch((e) => e);
    expect(second).toBeInstanceOf(EventUnsupportedError);
    expect(second.message).toMatch(/^not applicable to this target: .*onboarding: no sandbox account/);
    expect(requests(t.log)).toHaveLength(1);
    expect((await events.startConversation('tenant-a', 'assistant-1', 'web')).id).toBe('c-1');
  });

  it('a trigger error, a non-zero exit, output that is not a JSON object, or an answer without an id are failures', async () => {
    await expect(new TriggerEvents(trigger(`() => ({ error: 'line busy' })`).command).startCall('t', 'a')).rejects.toThrow(/line busy/);
    await expect(new TriggerEvents(trigger(`() => 3`).command).startCall('t', 'a')).rejects.toThrow(ControlError);
    await expect(new TriggerEvents(trigger(`() => 'ringing…'`).command).startCall('t', 'a')).rejects.toThrow(/no JSON/);
    await expect(new TriggerEvents(trigger(`() => [1]`).command).startCall('t', 'a')).rejects.toThrow(/not a JSON object/);
    await expect(new TriggerEvents(trigger(`() => ({ callId: 'x' })`).command).startCall('t', 'a')).rejects.toThrow(/without a string `id`/);
  });

  it('the optional kinds (tool invocation, agent away, deleted call, tenant-level URL) send their fields; each may be unsupported alone', async () => {
    const t = trigger(`(req) => req.kind === 'delete-call' ? { unsupported: 'calls are never deleted on this tenant' } : {}`);
    const events = new TriggerEvents(t.command);
    const call = { id: 'call-1' };
    await events.toolInvocation('tenant-a', call, 'tool-1');
    await events.agentAbsent('tenant-a', call, true);
    await events.agentAbsent('tenant-a', call, false);
    const deleted = await events.deleteCall('tenant-a', call).catch((e) => e);
    expect(deleted).toBeInstanceOf(EventUnsupportedError);
    expect(deleted.message).toBe('not applicable to this target: the event trigger cannot cause delete-call: calls are never deleted on this tenant');
    // The tenant-level URL is led to the receiver before the step that needs it, and no onboarding request runs meanwhile.
    const order: string[] = [];
    const during = events.withTenantUrl('tenant-a', 'https://hooks.example.test/t/r-null', async () => {
      order.push('during');
      await new Promise((r) => setTimeout(r, 200));
      order.push('during ends');
      return 'routed';
    });
    const onboarding = events.onboarding('tenant-a', 'chatapp.calling.live', 'https://hooks.example.test/o').then(() => order.push('onboarding'));
    expect(await during).toBe('routed');
    await onboarding;
    expect(order).toEqual(['during', 'during ends', 'onboarding']);
    expect(requests(t.log)).toEqual([
      { kind: 'tool-invocation', tenantId: 'tenant-a', callId: 'call-1', toolId: 'tool-1' },
      { kind: 'agent-absent', tenantId: 'tenant-a', callId: 'call-1', absent: true },
      { kind: 'agent-absent', tenantId: 'tenant-a', callId: 'call-1', absent: false },
      { kind: 'delete-call', tenantId: 'tenant-a', callId: 'call-1' },
      { kind: 'tenant-url', tenantId: 'tenant-a', deliverTo: 'https://hooks.example.test/t/r-null' },
      { kind: 'onboarding', tenantId: 'tenant-a', type: 'chatapp.calling.live', deliverTo: 'https://hooks.example.test/o' },
    ]);
  });

  it('a trigger that answers too late is a failure', async () => {
    const t = trigger(`() => { const end = Date.now() + 2000; while (Date.now() < end); return {}; }`);
    await expect(new TriggerEvents(t.command, 300).endConversation('t', 'c')).rejects.toThrow(/no answer within 300 ms/);
  });
});

describe('event trigger (URL form)', () => {
  it('POSTs the request and reads the answer; the example trigger serves on loopback', async () => {
    const child = spawn(process.execPath, ['test/support/simulator-trigger.mjs', '--serve', '0'], {
      env: { ...process.env, SIMULATOR_TRIGGER_CONTROL_URL: 'http://127.0.0.1:9/__control', SIMULATOR_TRIGGER_CANNOT: 'onboarding' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const url = await new Promise<string>((ok) => {
        let out = '';
        child.stdout!.on('data', (d) => {
          out += d;
          const m = /listening (\S+)/.exec(out);
          if (m) ok(m[1]);
        });
      });
      const events = new TriggerEvents(url);
      await expect(events.onboarding('t', 'chatapp.calling.live', 'https://hooks.example.test/x')).rejects.toThrow(
        /cannot cause onboarding: this rehearsal trigger/,
      );
      // Nothing listens at the control URL given: the trigger answers { error }, a failure of the run.
      await expect(events.startCall('t', 'a')).rejects.toThrow(ControlError);
    } finally {
      child.kill();
    }
  });
});

describe('CORE_API_EVENT_TRIGGER in the target', () => {
  const LIVE = {
    CORE_API_BASE_URL: 'https://staging.example.test',
    CORE_API_ORG_KEY: 'org-key-123456',
    CORE_API_TENANT_ID: '11111111-1111-4111-8111-111111111111',
    CORE_API_TENANT_KEY: 'tenant-key-A-123456',
    CORE_API_OTHER_TENANT_ID: '22222222-2222-4222-8222-222222222222',
    CORE_API_OTHER_TENANT_KEY: 'tenant-key-B-123456',
  };

  it('turns on the events capability with a command, an https URL or a loopback http URL, and refuses other URLs', () => {
    expect(readTargetConfig(LIVE).capabilities.events).toBe(false);
    const cmd = readTargetConfig({ ...LIVE, CORE_API_EVENT_TRIGGER: 'node ./ops/trigger.mjs' });
    expect(cmd.capabilities.events).toBe(true);
    expect(cmd.trigger).toBe('node ./ops/trigger.mjs');
    expect(readTargetConfig({ ...LIVE, CORE_API_EVENT_TRIGGER: 'https://ops.example.test/trigger' }).capabilities.events).toBe(true);
    expect(readTargetConfig({ ...LIVE, CORE_API_EVENT_TRIGGER: 'http://127.0.0.1:8788/' }).capabilities.events).toBe(true);
    expect(() => readTargetConfig({ ...LIVE, CORE_API_EVENT_TRIGGER: 'http://ops.example.test/trigger' })).toThrow(
      /command, an https URL or an http URL on loopback/,
    );
  });

  it("never repeats a refused trigger URL's user, password or token, and redacts those of a trigger in use", () => {
    const refused = 'http://ops-user:tr1gger-pa55@ops.example.test/trigger?token=tr1gger-t0ken';
    let message = '';
    try {
      readTargetConfig({ ...LIVE, CORE_API_EVENT_TRIGGER: refused });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('http://ops.example.test/…');
    for (const part of ['ops-user', 'tr1gger-pa55', 'tr1gger-t0ken']) expect(message).not.toContain(part);

    new TriggerEvents('https://hook-user:h00k-pa55word@ops.example.test/trigger?sig=h00k-s1gnature&kind=x');
    expect(redact('POST https://hook-user:h00k-pa55word@ops.example.test/trigger?sig=h00k-s1gnature failed')).toBe(
      'POST https://[REDACTED CORE_API_EVENT_TRIGGER user]:[REDACTED CORE_API_EVENT_TRIGGER password]@ops.example.test/trigger?sig=[REDACTED CORE_API_EVENT_TRIGGER sig] failed',
    );
  });
});

describe('a kind the trigger cannot cause skips the clause test that asked for it', () => {
  const reason = 'no second test line';
  clauseTest('6/a-end-of-call-fields', 'asks the trigger for something it cannot cause', async () => {
    throw new EventUnsupportedError('end-call', reason);
  });
  // eslint-disable-next-line no-empty-pattern
  afterAll(({}, suite) => {
    const task = (suite as { tasks: { result?: { state?: string; note?: string } }[] }).tasks[0]!;
    expect(task.result?.state).toBe('skip');
    expect(String(task.result?.note ?? '')).toContain(`cannot cause end-call: ${reason}`);
  });
});
