import { describe, expect, it } from 'vitest';
import { allowedConversationEnd, allowedEnd, allowedStart, destination, initialRouting } from '../../helpers/generate/routing-model';

describe('routing model', () => {
  it('routes to the serverUrl when set, else to the tenant-level URL, naming §2.3 rule 4 after a clear', () => {
    const m = initialRouting();
    expect(allowedStart(m)).toMatchObject({ to: ['T1'], clause: '6/route-tenant-url' });
    m.serverUrl = 'S2';
    expect(destination(m)).toBe('S2');
    expect(allowedStart(m)).toMatchObject({ to: ['S2'], clause: '6/route-server-url' });
    m.serverUrl = null;
    m.cleared = true;
    m.tenantUrl = 'T2';
    expect(allowedStart(m)).toMatchObject({ to: ['T2'], clause: '2.3/unset-tenant-url' });
  });

  it('keeps a call that began with a serverUrl on it, and lets one that began without go either way', () => {
    const start = { ...initialRouting(), serverUrl: 'S1' as const };
    expect(allowedEnd(start, { ...start, serverUrl: 'S2' })).toMatchObject({ to: ['S1'], clause: '1/call-keeps-server-url' });
    expect(allowedEnd(start, { ...start, serverUrl: null, cleared: true }).to).toEqual(['S1']);
    const bare = initialRouting();
    expect(allowedEnd(bare, { ...bare, tenantUrl: 'T2' }).to).toEqual(['T1', 'T2']);
    expect(allowedEnd(bare, { ...bare, serverUrl: 'S1' }).to).toEqual(['T1', 'S1']);
    expect(allowedEnd(bare, bare).to).toEqual(['T1']);
  });

  it("lets a conversation's report go where its events went at the start or go at the end, a serverUrl at the start included", () => {
    const start = { ...initialRouting(), serverUrl: 'S1' as const };
    expect(allowedConversationEnd(start, { ...start, serverUrl: null, cleared: true })).toMatchObject({ to: ['S1', 'T1'], clause: '6/route-server-url' });
    const bare = initialRouting();
    expect(allowedConversationEnd(bare, { ...bare, tenantUrl: 'T2' })).toMatchObject({ to: ['T1', 'T2'], clause: '6/route-tenant-url' });
  });
});
