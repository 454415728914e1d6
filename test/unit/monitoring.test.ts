/**
 * The §3 / §7 exception 2 retry policy of helpers/http/agent-absent-retry.ts: `agent_absent` retried once or
 * twice after a short delay, `not_live` never, anything else returned at once.
 */
import { describe, expect, it, vi } from 'vitest';
import { conflictReason, monitorRetryDecision, withAgentAbsentRetry, type MonitorAnswer } from '../../helpers/http/agent-absent-retry';

const absent: MonitorAnswer = { status: 409, json: { error: 'conflict', reason: 'agent_absent' } };
const notLive: MonitorAnswer = { status: 409, json: { error: 'conflict', reason: 'not_live' } };
const ok: MonitorAnswer = { status: 200, json: { joinUrl: 'x' } };

/** A send function answering the given sequence, counting calls. */
function sequence(...answers: MonitorAnswer[]) {
  const send = vi.fn(async () => answers[Math.min(send.mock.calls.length - 1, answers.length - 1)]);
  return send;
}

describe('conflictReason', () => {
  it('reads the reason of a bare 409 conflict body', () => {
    expect(conflictReason(absent)).toBe('agent_absent');
    expect(conflictReason(notLive)).toBe('not_live');
  });
  it('ignores other statuses, envelopes and bodies without a reason', () => {
    expect(conflictReason({ status: 200, json: { error: 'conflict', reason: 'agent_absent' } })).toBeUndefined();
    expect(conflictReason({ status: 409, json: { success: false, error: { code: 'CONFLICT', reason: 'agent_absent' } } })).toBeUndefined();
    expect(conflictReason({ status: 409, json: { error: 'conflict' } })).toBeUndefined();
    expect(conflictReason({ status: 409, json: undefined })).toBeUndefined();
  });
});

describe('monitorRetryDecision', () => {
  it('retries agent_absent only', () => {
    expect(monitorRetryDecision(absent)).toBe('retry');
    expect(monitorRetryDecision(notLive)).toBe('final');
    expect(monitorRetryDecision({ status: 409, json: { error: 'conflict', reason: 'some_new_reason' } })).toBe('final');
    expect(monitorRetryDecision(ok)).toBe('final');
    expect(monitorRetryDecision({ status: 429, json: { retryAfterSeconds: 1 } })).toBe('final');
  });
});

describe('withAgentAbsentRetry', () => {
  it('never retries not_live', async () => {
    const send = sequence(notLive, ok);
    const r = await withAgentAbsentRetry(send, { delayMs: 0 });
    expect(r.res).toBe(notLive);
    expect(r.attempts).toBe(1);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('returns a success at once', async () => {
    const send = sequence(ok);
    const r = await withAgentAbsentRetry(send, { delayMs: 0 });
    expect(r).toEqual({ res: ok, attempts: 1 });
  });

  it('retries agent_absent and returns the answer once the assistant is back', async () => {
    const send = sequence(absent, ok);
    const onRetry = vi.fn();
    const r = await withAgentAbsentRetry(send, { delayMs: 0, onRetry });
    expect(r).toEqual({ res: ok, attempts: 2 });
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(onRetry).toHaveBeenCalledWith(1, absent);
  });

  it('stops after two retries (three attempts) and returns the last agent_absent', async () => {
    const send = sequence(absent, absent, absent, ok);
    const r = await withAgentAbsentRetry(send, { delayMs: 0 });
    expect(r.res).toBe(absent);
    expect(r.attempts).toBe(3);
    expect(send).toHaveBeenCalledTimes(3);
  });

  it('honours retries: 1', async () => {
    const send = sequence(absent, absent, ok);
    const r = await withAgentAbsentRetry(send, { retries: 1, delayMs: 0 });
    expect(r.attempts).toBe(2);
    expect(r.res).toBe(absent);
  });

  it('a not_live after an agent_absent is final', async () => {
    const send = sequence(absent, notLive, ok);
    const r = await withAgentAbsentRetry(send, { delayMs: 0 });
    expect(r).toEqual({ res: notLive, attempts: 2 });
  });

  it('waits the delay before a retry', async () => {
    const send = sequence(absent, ok);
    const started = performance.now();
    await withAgentAbsentRetry(send, { delayMs: 60 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('refuses more than two retries or an unbounded delay', async () => {
    await expect(withAgentAbsentRetry(sequence(ok), { retries: 3 as any })).rejects.toThrow(RangeError);
    await expect(withAgentAbsentRetry(sequence(ok), { delayMs: 60_000 })).rejects.toThrow(RangeError);
  });

  it('passes on what send throws, without retrying', async () => {
    const send = vi.fn(async (): Promise<MonitorAnswer> => {
      throw new Error('no answer');
    });
    await expect(withAgentAbsentRetry(send, { delayMs: 0 })).rejects.toThrow('no answer');
    expect(send).toHaveBeenCalledTimes(1);
  });
});
