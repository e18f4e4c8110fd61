import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECRETS, useTestContext } from '../../../test/helpers/context.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { webhookDeliveries } from '../../db/schema/index.ts';
import { JobQueue } from '../../jobs/job-queue.ts';
import { systemClock } from '../../shared/clock.ts';
import { AddressGuard, type Lookup, refusedRange } from './address-guard.ts';
import type { DeliveryDeps } from './delivery.ts';
import { insertEndpoint } from './endpoints.repository.ts';
import { Receiver } from './fixtures/receiver.ts';
import { parseAllowedPrivateHosts } from './host-names.ts';
import { send } from './sender.ts';
import { newSigningSecret } from './signing.ts';
import { defineWebhookJobs } from './webhooks.jobs.ts';
import { endpointSecretBox } from './webhooks.services.ts';

const ctx = useTestContext();
const receiver = new Receiver();
let port = 0;

beforeAll(async () => {
  await receiver.start();
  port = Number(new URL(receiver.url).port);
});
afterAll(async () => {
  await receiver.close();
});

/** A local resolver: what each test name resolves to (a missing name is NXDOMAIN). */
const ZONE: Record<string, string[]> = {
  'internal.corp.test': ['10.1.2.3'],
  'metadata.test': ['169.254.169.254'],
  'metadata6.test': ['fd00:ec2::254'],
  'loopback6.test': ['::1'],
  'rebind.test': ['127.0.0.1'],
  'mixed.test': ['8.8.8.8', '10.0.0.1'],
  'mixed-order.test': ['192.168.7.7', '1.1.1.1'],
  'mapped.test': ['::ffff:192.168.0.1'],
  'cgnat.test': ['100.100.1.1'],
  'nat64.test': ['64:ff9b::a00:1'],
  'public.test': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'empty.test': [],
  // The test receiver, let through by name.
  'receiver.test': ['127.0.0.1'],
  'other-name.test': ['127.0.0.1'],
};
const stubLookup: Lookup = async (hostname) => {
  const addresses = ZONE[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

/** Hosts whose private address is plain in the URL, in every notation the URL parser accepts. */
const LITERAL_HOSTS = [
  '127.0.0.1',
  '127.0.0.1.',
  '127.1',
  '127.000.000.001',
  '2130706433',
  '0177.0.0.1',
  '0x7f.1',
  '0x7f000001',
  '%31%32%37.0.0.1',
  '0',
  '0.0.0.0',
  '10.0.0.1',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '169.254.169.254',
  '169.254.0.1',
  '100.64.0.1',
  '224.0.0.1',
  '255.255.255.255',
  '192.0.2.1',
  '198.18.0.1',
  '240.0.0.1',
  'localhost',
  'LOCALHOST.',
  'api.localhost',
  '[::1]',
  '[::]',
  '[0:0:0:0:0:0:0:1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[0:0:0:0:0:ffff:10.0.0.1]',
  '[::127.0.0.1]',
  '[fe80::1]',
  '[fc00::1]',
  '[fd00:ec2::254]',
  '[fec0::1]',
  '[ff02::1]',
  '[2002:7f00:1::]',
  '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
  '[64:ff9b::7f00:1]',
  '[2001:db8::1]',
  '[2001:2::1]',
  '[100::1]',
];

/** Names that look harmless until resolved. */
const RESOLVED_HOSTS = [
  'internal.corp.test',
  'metadata.test',
  'metadata6.test',
  'loopback6.test',
  'rebind.test',
  'mixed.test',
  'mixed-order.test',
  'mapped.test',
  'cgnat.test',
  'nat64.test',
  'empty.test',
  'nowhere.test',
];

const urlOf = (host: string, scheme = 'http') => `${scheme}://${host}:${port}/hook`;

describe('the address check', () => {
  it('calls only plainly public unicast addresses public', () => {
    for (const address of ['8.8.8.8', '93.184.216.34', '2606:4700::1111', '2a00:1450:4001:80b::200e']) {
      expect(refusedRange(address), address).toBeUndefined();
    }
    expect(refusedRange('::ffff:8.8.8.8')).toBeUndefined();
    expect(refusedRange('::ffff:10.0.0.1')).toBe('private');
    expect(refusedRange('169.254.169.254')).toBe('cloud metadata');
    expect(refusedRange('fd00:ec2::254')).toBe('cloud metadata');
    expect(refusedRange('2002:c0a8:101::1')).toBe('6to4');
    expect(refusedRange('2001:2::1')).toBe('benchmarking');
  });

  it('resolves a name once, checks every address, and answers the one to connect to', async () => {
    const guard = new AddressGuard({ allowedHosts: [], lookup: stubLookup });
    expect(await guard.resolve('public.test')).toBe('93.184.216.34');
    expect(await guard.resolve('[2606:4700::1111]')).toBe('2606:4700::1111');
    await expect(guard.resolve('mixed.test')).rejects.toThrow(
      'refused: mixed.test resolves to 10.0.0.1 is not a public address (private)',
    );
    await expect(guard.resolve('nowhere.test')).rejects.toThrow('DNS lookup failed (ENOTFOUND)');
  });

  it('lets chosen private hosts through, by name or by address, and nothing else', async () => {
    const byAddress = new AddressGuard({ allowedHosts: ['127.0.0.1'], lookup: stubLookup });
    expect(await byAddress.resolve('2130706433')).toBe('127.0.0.1');
    expect(await byAddress.resolve('rebind.test')).toBe('127.0.0.1');
    await expect(byAddress.resolve('[::1]')).rejects.toThrow('refused');
    await expect(byAddress.resolve('10.0.0.1')).rejects.toThrow('refused');
    const byName = new AddressGuard({ allowedHosts: ['internal.corp.test'], lookup: stubLookup });
    expect(await byName.resolve('Internal.Corp.Test.')).toBe('10.1.2.3');
    await expect(byName.resolve('10.1.2.3')).rejects.toThrow('refused');
    // Metadata services stay refused even when listed.
    const metadata = new AddressGuard({
      allowedHosts: ['169.254.169.254', 'metadata.test'],
      lookup: stubLookup,
    });
    expect(metadata.literalRefusal('169.254.169.254')).toBe(
      '169.254.169.254 is not a public address (cloud metadata)',
    );
    await expect(metadata.resolve('metadata.test')).rejects.toThrow('(cloud metadata)');
  });

  it('reads WEBHOOK_ALLOWED_PRIVATE_HOSTS like URL hosts, and refuses entries that are not hosts at start', () => {
    expect(parseAllowedPrivateHosts(' 127.1 , localhost., ::1,[fd00::1] ,')).toEqual({
      hosts: ['127.0.0.1', 'localhost', '::1', 'fd00::1'],
      problems: [],
    });
    const config = loadConfig({ NODE_ENV: 'test', WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1,LocalHost' });
    expect(config.webhookAllowedPrivateHosts).toEqual(['127.0.0.1', 'localhost']);
    expect(loadConfig({ NODE_ENV: 'test' }).webhookAllowedPrivateHosts).toEqual([]);
    for (const bad of ['127.0.0.1:8080', 'http://x', 'a b', 'user@host']) {
      expect(() => loadConfig({ NODE_ENV: 'test', WEBHOOK_ALLOWED_PRIVATE_HOSTS: bad }), bad).toThrow(
        ConfigError,
      );
    }
  });
});

describe('https through the guard', () => {
  it('connects to the checked address but checks the certificate against the host name (SNI)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tmw-webhook-tls-'));
    const [certFile, keyFile] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=receiver.test',
        '-addext',
        'subjectAltName=DNS:receiver.test',
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ],
      { stdio: 'ignore' },
    );
    const cert = readFileSync(certFile, 'utf8');
    const names: (string | false | null)[] = [];
    const server = createHttpsServer({ cert, key: readFileSync(keyFile) }, (req, res) => {
      names.push((req.socket as TLSSocket).servername);
      req.resume().on('end', () => res.writeHead(200).end());
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const tlsPort = (server.address() as AddressInfo).port;
    const guard = new AddressGuard({
      allowedHosts: ['receiver.test', 'other-name.test'],
      lookup: stubLookup,
    });
    const agent = guard.agent(2_000, { ca: cert });
    try {
      const post = (host: string) =>
        send(
          agent,
          { url: `https://${host}:${tlsPort}/hook`, body: '{}', headers: {} },
          2_000,
          new AbortController().signal,
        );
      expect(await post('receiver.test')).toMatchObject({ ok: true, responseStatus: 200, error: null });
      expect(names).toEqual(['receiver.test']);
      expect(await post('other-name.test')).toMatchObject({
        ok: false,
        responseStatus: null,
        error: 'TLS failed (ERR_TLS_CERT_ALTNAME_INVALID)',
      });
      expect(names).toHaveLength(1);
    } finally {
      await agent.close();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a corpus of hostile URLs', () => {
  it(`holds at least 40 URLs (${LITERAL_HOSTS.length + RESOLVED_HOSTS.length})`, () => {
    expect(LITERAL_HOSTS.length + RESOLVED_HOSTS.length).toBeGreaterThanOrEqual(40);
  });

  it('is refused with 400 at create and at patch when the private address is in the URL itself', async () => {
    const team = await ctx.newTeam();
    const existing = await ctx.request({
      method: 'POST',
      url: '/api/v1/webhooks/',
      token: team.owner.token,
      payload: { url: 'https://hooks.example.com/in', teamId: team.id },
    });
    const endpointId = existing.json().id;
    for (const host of LITERAL_HOSTS) {
      for (const url of [urlOf(host), urlOf(host, 'https')]) {
        const created = await ctx.request({
          method: 'POST',
          url: '/api/v1/webhooks/',
          token: team.owner.token,
          payload: { url, teamId: team.id },
        });
        expect(created.statusCode, url).toBe(400);
        expect(created.json().details, url).toEqual([
          { path: '/body/url', message: expect.stringMatching(/^is refused: /) },
        ]);
        const patched = await ctx.request({
          method: 'PATCH',
          url: `/api/v1/webhooks/${endpointId}`,
          token: team.owner.token,
          payload: { url },
        });
        expect(patched.statusCode, url).toBe(400);
      }
    }
    const list = await ctx.request({
      method: 'GET',
      url: `/api/v1/webhooks/?teamId=${team.id}`,
      token: team.owner.token,
    });
    expect(list.json().items.map((e: { url: string }) => e.url)).toEqual(['https://hooks.example.com/in']);
  });

  it('is refused at connect time, every one, and logged as a failed attempt; the allowed receiver still gets its event', async () => {
    const clock = systemClock;
    const db = ctx.database.db;
    const team = await ctx.newTeam();
    const box = endpointSecretBox(TEST_SECRETS);
    // Saved directly: a stored URL whose name points elsewhere by now, or one saved before these checks.
    const hostile = [...LITERAL_HOSTS, ...RESOLVED_HOSTS].map((host) => urlOf(host));
    const redirecting = `http://receiver.test:${port}/hook/redirect`;
    const allowed = `http://receiver.test:${port}/hook/allowed`;
    for (const url of [...hostile, redirecting, allowed]) {
      await insertEndpoint(db, { teamId: team.id, url, secret: box.seal(newSigningSecret()) });
    }
    receiver.respond((request) =>
      request.path.endsWith('/redirect')
        ? { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } }
        : { status: 200 },
    );

    const guard = new AddressGuard({ allowedHosts: ['receiver.test'], lookup: stubLookup });
    const deps: DeliveryDeps = { db, clock, secrets: box, agent: guard.agent(2_000), timeoutMs: 2_000 };
    const queue = new JobQueue(db, clock);
    defineWebhookJobs(queue, deps);
    try {
      const [event] = await db.transaction((tx) =>
        ctx.app.services.events.record(tx, {
          type: 'booking.created',
          subject: { type: 'session', id: 1 },
          teamId: team.id,
          payload: { id: 1 },
        }),
      );
      const eventId = event!.id;
      await ctx.app.services.eventConsumers.drain();
      await queue.runDue();
      const attempts = await db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.eventId, eventId));
      const urls = new Map(
        (
          await ctx.request({
            method: 'GET',
            url: `/api/v1/webhooks/?teamId=${team.id}&limit=200`,
            token: team.owner.token,
          })
        )
          .json()
          .items.map((e: { id: number; url: string }) => [e.id, e.url]),
      );
      const firstAttempts = attempts.filter((a) => a.attempt === 1);
      expect(firstAttempts).toHaveLength(hostile.length + 2);
      for (const attempt of firstAttempts) {
        const url = urls.get(attempt.endpointId) as string;
        if (url === allowed) {
          expect(attempt, url).toMatchObject({ status: 'succeeded', responseStatus: 200 });
        } else if (url === redirecting) {
          expect(attempt, url).toMatchObject({
            status: 'failed',
            responseStatus: 302,
            error: 'redirect (HTTP 302) not followed',
          });
        } else {
          expect(attempt.status, url).toBe('failed');
          expect(attempt.responseStatus, url).toBeNull();
          expect(attempt.error, url).toMatch(
            /^(refused: .+ is not a public address \(.+\)|refused: .+ names this machine|DNS lookup (failed \(ENOTFOUND\)|found no address))$/,
          );
        }
      }
      // Nothing reached the receiver but the two allowed endpoints; the redirect was not followed.
      expect(receiver.received.map((r) => r.path).sort()).toEqual(['/hook/allowed', '/hook/redirect']);
    } finally {
      await queue.stop();
      await deps.agent.close();
    }
  });
});
