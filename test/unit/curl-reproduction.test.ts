/**
 * helpers/base/exchange.ts `curlReproduction` with helpers/world/world.ts `curlCredential`: a failing request
 * printed as a curl command a reader can run, every principal's key a shell variable, never a key.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { curlReproduction } from '../../helpers/base/exchange';
import { curlCredential, type PrincipalName } from '../../helpers/world/world';

/** The words a POSIX shell makes of `command` (variables unset, so they expand to nothing). */
function shellWords(command: string): string[] {
  const out = execFileSync('sh', ['-c', `set -- ${command.replace(/^curl /, '')}; for w; do printf '%s\\0' "$w"; done`], { env: {} });
  return out.toString('utf8').split('\0').slice(0, -1);
}

describe('curl reproduction', () => {
  it('sends the credential as variables, then the headers and the body, each one shell word', () => {
    const cmd = curlReproduction(
      { method: 'PATCH', path: '/assistants/a-1', headers: { 'content-type': 'text/plain', 'x-absent': undefined }, body: `{"name":"it's"}` },
      curlCredential('orgA'),
    );
    expect(cmd).toBe(
      `curl -X PATCH "$CORE_API_BASE_URL/assistants/a-1" -H "Authorization: ApiKey $CORE_API_ORG_KEY" -H "X-Tenant-Id: $CORE_API_TENANT_ID" -H 'content-type: text/plain' --data-binary '{"name":"it'\\''s"}'`,
    );
    expect(shellWords(cmd)).toEqual([
      '-X',
      'PATCH',
      '/assistants/a-1',
      '-H',
      'Authorization: ApiKey ',
      '-H',
      'X-Tenant-Id: ',
      '-H',
      'content-type: text/plain',
      '--data-binary',
      `{"name":"it's"}`,
    ]);
  });

  it('shortens a long body or header and says its length, still one shell word', () => {
    const cmd = curlReproduction(
      { method: 'POST', path: '/x', headers: { 'x-pad': 'a'.repeat(8_000) }, body: `'${'z'.repeat(300)}` },
      curlCredential('anonymous'),
    );
    expect(cmd).not.toContain('Authorization');
    const words = shellWords(cmd);
    expect(words).toContain(`x-pad: ${'a'.repeat(20)}…(8000 characters)`);
    expect(words.at(-1)).toBe(`'${'z'.repeat(199)}… (301 characters)`);
  });

  it('passes a path the shell would expand or unquote to curl as written', () => {
    for (const path of ['/assistants/$(id)', '/assistants/`id`', '/a"b', '/a\\b', '/x?q=$HOME!', "/it's"]) {
      const words = shellWords(curlReproduction({ method: 'GET', path }));
      expect(words, path).toEqual(['-X', 'GET', path]);
    }
  });

  it('every principal has its credential words, and none is a key but the unknown one nobody issued', () => {
    const principals: PrincipalName[] = [
      'tenantA',
      'tenantB',
      'orgA',
      'orgB',
      'org',
      'orgForeign',
      'tenantAasB',
      'tenantAasSelf',
      'anonymous',
      'rotated',
      'secretAsKey',
      'unknownKey',
    ];
    for (const p of principals) {
      const { key, tenantId } = curlCredential(p);
      if (p === 'anonymous') expect(key).toBeUndefined();
      else if (p !== 'unknownKey') expect(key, p).toMatch(/^\$CORE_API_[A-Z_]+$/);
      if (tenantId !== undefined) expect(tenantId, p).toMatch(/^\$CORE_API_[A-Z_]+_ID$/);
    }
  });
});
