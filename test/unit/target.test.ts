import { describe, expect, it } from 'vitest';
import {
  readTargetConfig,
  TargetConfigError,
  capabilityReason,
  capabilitySwitch,
  missingFixtureReason,
  switchesOfReason,
  SWITCHES,
} from '../../helpers/target/target';

const LIVE = {
  CORE_API_BASE_URL: 'https://staging.example.test/',
  CORE_API_ORG_KEY: 'org-key-123456',
  CORE_API_TENANT_ID: '11111111-1111-4111-8111-111111111111',
  CORE_API_TENANT_KEY: 'tenant-key-A-123456',
  CORE_API_OTHER_TENANT_ID: '22222222-2222-4222-8222-222222222222',
  CORE_API_OTHER_TENANT_KEY: 'tenant-key-B-123456',
};

describe('target configuration (control-api.md, targets)', () => {
  it('is the embedded simulator when CORE_API_BASE_URL is unset', () => {
    const t = readTargetConfig({ CORE_API__EMBEDDED_BASE_URL: 'http://127.0.0.1:5000' });
    expect(t.mode).toBe('embedded');
    expect(t.controlUrl).toBe('http://127.0.0.1:5000/__control');
    expect(t.capabilities).toMatchObject({ control: true, sms: true, billable: true, destructive: true, fuzzWrites: true, receiver: true, modelUsage: true });
  });

  it('is an external simulator when both URLs are set', () => {
    const t = readTargetConfig({ CORE_API_BASE_URL: 'http://127.0.0.1:4010/', CORE_API_CONTROL_URL: 'http://127.0.0.1:4010/__control' });
    expect(t.mode).toBe('external');
    expect(t.baseUrl).toBe('http://127.0.0.1:4010');
  });

  it('is a live tenant with only the base URL, and lists every missing required variable at once', () => {
    let err: unknown;
    try {
      readTargetConfig({ CORE_API_BASE_URL: 'https://staging.example.test', CORE_API_TENANT_ID: 'x' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TargetConfigError);
    expect((err as TargetConfigError).missing).toEqual(['CORE_API_ORG_KEY', 'CORE_API_TENANT_KEY', 'CORE_API_OTHER_TENANT_ID', 'CORE_API_OTHER_TENANT_KEY']);
    expect((err as Error).message).toContain('CORE_API_ORG_KEY, CORE_API_TENANT_KEY');
  });

  it('grants no control, SMS, billing or destructive capability on a live tenant without opt-ins', () => {
    const t = readTargetConfig(LIVE);
    expect(t.mode).toBe('live');
    expect(t.capabilities).toMatchObject({
      control: false,
      sms: false,
      billable: false,
      destructive: false,
      fuzzWrites: false,
      receiver: false,
      modelUsage: false,
    });
    expect(t.live?.foreignTenantId).toBeUndefined();
  });

  it('honours the SMS and billing opt-ins and optional fixtures', () => {
    const t = readTargetConfig({ ...LIVE, CORE_API_ALLOW_SMS: '1', CORE_API_ALLOW_BILLABLE: '1', CORE_API_ROTATED_KEY: 'old-key-123456' });
    expect(t.capabilities.sms).toBe(true);
    expect(t.capabilities.billable).toBe(true);
    expect(t.capabilities.destructive).toBe(false);
    expect(t.live?.rotatedKey).toBe('old-key-123456');
    expect(t.capabilities.fuzzWrites).toBe(false);
    expect(readTargetConfig({ ...LIVE, CORE_API_ALLOW_FUZZ_WRITES: '1' }).capabilities.fuzzWrites).toBe(true);
    expect(readTargetConfig({ ...LIVE, CORE_API_ALLOW_MODEL_USAGE: '1' }).capabilities.modelUsage).toBe(true);
  });

  it('tags every capability reason and missing-fixture reason with the switch that lifts it, and every switch says how to turn it on', () => {
    for (const cap of ['control', 'sms', 'billable', 'destructive', 'fuzzWrites', 'receiver', 'modelUsage', 'events', 'smsReasons'] as const)
      expect(switchesOfReason(capabilityReason(cap))).toEqual([capabilitySwitch(cap)]);
    expect(switchesOfReason(missingFixtureReason('rotatedKey'))).toEqual(['rotatedKey']);
    expect(missingFixtureReason('rotatedKey')).toBe('missing optional fixture: set CORE_API_ROTATED_KEY');
    expect(switchesOfReason('precondition failed: something else')).toEqual([]);
    for (const [name, info] of Object.entries(SWITCHES)) {
      expect(info.howTo, name).toBeTruthy();
      if (name !== 'control') expect(info.variable, name).toMatch(/^CORE_API_[A-Z_]+=/);
    }
  });

  it('turns the receiver on with an https public URL, and reads the receiver port', () => {
    const t = readTargetConfig({ ...LIVE, CORE_API_WEBHOOK_PUBLIC_URL: 'https://hooks.example.test/ci/', CORE_API_WEBHOOK_PORT: '8787' });
    expect(t.capabilities.receiver).toBe(true);
    expect(t.webhook).toEqual({ publicUrl: 'https://hooks.example.test/ci', port: 8787 });
    expect(readTargetConfig({ ...LIVE, CORE_API_WEBHOOK_PUBLIC_URL: 'https://hooks.example.test' }).webhook).toEqual({
      publicUrl: 'https://hooks.example.test',
    });
    expect(readTargetConfig({ ...LIVE, CORE_API_WEBHOOK_PORT: '8787' }).capabilities.receiver).toBe(false);
    expect(() => readTargetConfig({ ...LIVE, CORE_API_WEBHOOK_PUBLIC_URL: 'http://hooks.example.test' })).toThrow(
      /^CORE_API_WEBHOOK_PUBLIC_URL=http:\/\/hooks\.example\.test: expected an https URL/,
    );
    expect(() => readTargetConfig({ ...LIVE, CORE_API_WEBHOOK_PUBLIC_URL: 'https://hooks.example.test/?x=1' })).toThrow(/without query/);
    expect(() => readTargetConfig({ ...LIVE, CORE_API_WEBHOOK_PUBLIC_URL: 'https://h.example.test', CORE_API_WEBHOOK_PORT: '70000' })).toThrow(
      /^CORE_API_WEBHOOK_PORT=70000: expected an integer from 1 to 65535/,
    );
  });

  it('reads the wildcard DNS domain on a live tenant and refuses one that is not a domain name', () => {
    expect(readTargetConfig({ ...LIVE, CORE_API_WILDCARD_DNS: 'SSLIP.io.' }).wildcardDns).toBe('sslip.io');
    expect(readTargetConfig(LIVE).wildcardDns).toBeUndefined();
    expect(() => readTargetConfig({ ...LIVE, CORE_API_WILDCARD_DNS: 'https://sslip.io' })).toThrow(/must be a domain name/);
  });

  it('rejects a base URL that is not http(s)', () => {
    expect(() => readTargetConfig({ ...LIVE, CORE_API_BASE_URL: 'staging.example.test' })).toThrow(
      /^CORE_API_BASE_URL=staging\.example\.test: expected an http or https URL/,
    );
  });
});
