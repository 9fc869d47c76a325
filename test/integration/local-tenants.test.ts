import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../../cli/login';
import { LOCAL_TOKEN_PATH } from '../../local/runtime/token-minting';
import { type LocalStack, startLocalStack, writeLocalManifest } from '../../local/stack';
import { emulatorEndpoints } from '../support/emulators';

/*
 * Several tenants on one local stack: the gateway mints a token of any tenant
 * for the holder of the run's admin token, `gpurent login --local --tenant`
 * saves one, and each token reaches its own tenant's data only.
 */
let stack: LocalStack;
let home: string;
const savedConfigDir = process.env.GPURENT_CONFIG_DIR;

beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    endpoints: emulatorEndpoints(),
    timers: false,
    prefix: `tenants${Date.now()}`,
  });
  home = mkdtempSync(join(tmpdir(), 'gpurent-tenants-'));
  await writeLocalManifest(join(home, '.gpurent/local.json'), stack);
});

afterAll(async () => {
  if (savedConfigDir === undefined) delete process.env.GPURENT_CONFIG_DIR;
  else process.env.GPURENT_CONFIG_DIR = savedConfigDir;
  await stack?.stop();
});

/** With the run's admin token unless told otherwise (`null`: no Authorization header). */
const mint = (body: unknown, token: string | null = stack.adminToken) =>
  fetch(`${stack.apiUrl}${LOCAL_TOKEN_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const api = (token: string, method: string, path: string, body?: unknown) =>
  fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** `gpurent login --local --tenant NAME`, in-process, with its own config dir; the token it saved. */
async function loginAs(tenant: string): Promise<string> {
  const configDir = join(home, `config-${tenant}`);
  process.env.GPURENT_CONFIG_DIR = configDir;
  const out: string[] = [];
  await login(
    { local: true, tenant, json: true },
    { out: (text) => out.push(text), progress: () => {}, cwd: home, sleep: async () => {} },
  );
  expect(JSON.parse(out.join(''))).toMatchObject({ apiUrl: stack.apiUrl, tenant });
  return (JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')) as { token: string }).token;
}

describe('several tenants on the local stack', () => {
  it("a token minted for acme reaches acme's leases and not globex's: globex's lease is a 404 to acme", async () => {
    const acme = await loginAs('acme');
    const globex = await loginAs('globex');

    const created = await api(globex, 'POST', '/v1/leases', { workload: 'training', gpus: 1 });
    expect(created.status).toBe(202);
    const { leaseId } = (await created.json()) as { leaseId: string };

    expect((await api(globex, 'GET', `/v1/leases/${leaseId}`)).status).toBe(200);
    const foreign = await api(acme, 'GET', `/v1/leases/${leaseId}`);
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('LEASE_NOT_FOUND');
    const own = (await (await api(acme, 'POST', '/v1/leases', { workload: 'training', gpus: 1 })).json()) as {
      leaseId: string;
    };
    const listed = async (token: string) =>
      (
        (await (await api(token, 'GET', '/v1/leases')).json()) as { leases: { leaseId: string }[] }
      ).leases.map((lease) => lease.leaseId);
    expect(await listed(acme)).toEqual([own.leaseId]);
    expect(await listed(globex)).toEqual([leaseId]);
    expect((await api(globex, 'DELETE', `/v1/leases/${own.leaseId}`)).status).toBe(404);
  });

  it('refuses a bad tenant name with a clear error, in the CLI (usage, exit 2) and at the gateway (400)', async () => {
    for (const tenant of ['', 'acme corp', 'a/b', 'x'.repeat(65)]) {
      await expect(loginAs(tenant)).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringMatching(/^--tenant must be 1-64 letters, digits, "_" or "-", not /),
      });
      const response = await mint({ tenant });
      expect(response.status, tenant).toBe(400);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.message).toMatch(/tenant: must be 1-64 letters, digits, "_" or "-"/);
    }
    expect((await mint('{not json')).status).toBe(400);
    expect((await mint({ tenant: 'acme', admin: true })).status).toBe(400);
  });

  it("mints only for the run's admin token: none is 401, a tenant's token is 403", async () => {
    expect((await mint({ tenant: 'acme' }, null)).status).toBe(401);
    expect((await mint({ tenant: 'acme' }, 'forged')).status).toBe(401);
    const refused = await mint({ tenant: 'acme' }, stack.token);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('ADMIN_REQUIRED');
    const minted = await mint({ tenant: 'acme' });
    expect(minted.status).toBe(201);
    expect(await minted.json()).toMatchObject({ tenant: 'acme', token: expect.any(String) });
  });

  it('--tenant is refused without --local: only the local stack mints tokens', async () => {
    await expect(
      login(
        { api: stack.apiUrl, token: stack.token, tenant: 'acme' },
        { out: () => {}, progress: () => {}, cwd: home, sleep: async () => {} },
      ),
    ).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/--tenant works with --local only/),
    });
  });
});
