import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDataDir } from './helpers/data-dir.ts';
import { cloneDatabase } from './helpers/database.ts';
import { type ServerProcess, startServer, stopServer } from './helpers/server-process.ts';

// A web app on another origin, in a real browser, against the real service: CORS, the headers it may read,
// and the chat event stream over EventSource with a stream ticket. Chromium is required: without it, fail.
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const PROCESS_TEST_TIMEOUT_MS = 120_000;

/** The page's script: every step against the API origin given as `?api=`, its results in `window.result`. */
const APP_SCRIPT = `
const api = new URLSearchParams(location.search).get('api');
const report = (result) => { window.result = result; };
async function call(method, path, token, body) {
  const res = await fetch(api + path, {
    method,
    headers: {
      ...(token ? { authorization: 'Bearer ' + token } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}
(async () => {
  const email = 'browser-' + Math.random().toString(36).slice(2) + '@example.test';
  const signup = await call('POST', '/api/v1/auth/signup', null, { email, password: 'a long browser password' });
  const login = await call('POST', '/api/v1/auth/login', null, { email, password: 'a long browser password' });
  const token = login.body.access_token;
  const team = await call('POST', '/api/v1/teams/', token, { name: 'Browser band' });
  const track = await call('POST', '/api/v1/tracks', token, { title: 'Opened in a browser', team_id: team.body.id, audio_file_name: 'take.wav' });
  const tracks = await call('GET', '/api/v1/tracks?teamId=' + team.body.id, token);
  const anonymous = await call('GET', '/api/v1/tracks', null);
  const ticket = await call('POST', '/api/v1/chat/events/ticket', token);
  const thread = await call('POST', '/api/v1/chat/threads', token, { type: 'team', teamIds: [team.body.id], name: 'web' });
  const received = await new Promise((resolve, reject) => {
    const source = new EventSource(api + '/api/v1/chat/events?ticket=' + encodeURIComponent(ticket.body.ticket));
    const timer = setTimeout(() => { source.close(); reject(new Error('no event within 10 s')); }, 10000);
    source.onopen = () => {
      call('POST', '/api/v1/chat/threads/' + thread.body.id + '/messages', token, { content: 'hello from the page' });
    };
    source.addEventListener('message.created', (event) => {
      clearTimeout(timer);
      source.close();
      resolve({ id: event.lastEventId, content: JSON.parse(event.data).data.message.content });
    });
  });
  report({
    statuses: {
      signup: signup.status, login: login.status, team: team.status, track: track.status,
      tracks: tracks.status, anonymous: anonymous.status, ticket: ticket.status, thread: thread.status,
    },
    trackTitles: tracks.body.items.map((t) => t.title),
    requestId: tracks.headers.get('x-request-id'),
    rateLimitPolicy: tracks.headers.get('ratelimit-policy'),
    rateLimit: tracks.headers.get('ratelimit'),
    location: track.headers.get('location'),
    wwwAuthenticate: anonymous.headers.get('www-authenticate'),
    ticket: ticket.body.ticket,
    received,
  });
})().catch((error) => report({ error: String(error && error.stack || error) }));
`;

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Web app</title></head>
<body><script type="module">${APP_SCRIPT}</script></body></html>`;

type PageResult = {
  error?: string;
  statuses: Record<string, number>;
  trackTitles: string[];
  requestId: string | null;
  rateLimitPolicy: string | null;
  rateLimit: string | null;
  wwwAuthenticate: string | null;
  ticket: string;
  received: { id: string; content: string };
};

let pageServer: Server;
let pageOrigin = '';
let api: ServerProcess;
let browser: BrowserContext;
let userDataDir = '';
const dirs: string[] = [];

beforeAll(async () => {
  // Required: a machine without Chromium fails this file rather than skipping it.
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is required for the browser test at ${CHROMIUM}`);
  pageServer = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;

  const dataDir = await newDataDir('tmw-browser-');
  dirs.push(dataDir);
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'info', CORS_ORIGINS: pageOrigin };
  if (process.env.DATABASE_URL) {
    const database = await cloneDatabase();
    await database.close();
    env.DATABASE_URL = database.url!;
  }
  api = await startServer(env, 60_000);

  userDataDir = mkdtempSync(join(tmpdir(), 'tmw-chromium-'));
  dirs.push(userDataDir);
  browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  if (api) await stopServer(api, 'SIGTERM');
  await new Promise((resolve) => pageServer?.close(resolve));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, PROCESS_TEST_TIMEOUT_MS);

/** What the page reports once its script has run (it sets `globalThis.result`). */
async function resultOf(page: Page): Promise<PageResult> {
  await page.waitForFunction(
    () => (globalThis as unknown as { result?: unknown }).result !== undefined,
    null,
    { timeout: 30_000 },
  );
  return (await page.evaluate(() => (globalThis as unknown as { result: unknown }).result)) as PageResult;
}

describe('a web app on another origin', () => {
  it(
    'signs up, lists tracks, reads the exposed headers and receives a chat event over EventSource',
    async () => {
      const page = await browser.newPage();
      const consoleErrors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      await page.goto(`${pageOrigin}/?api=${encodeURIComponent(api.url)}`);
      const result = await resultOf(page);
      expect(result.error).toBeUndefined();
      expect(result.statuses).toEqual({
        signup: 201,
        login: 200,
        team: 201,
        track: 201,
        tracks: 200,
        anonymous: 401,
        ticket: 201,
        thread: 201,
      });
      expect(result.trackTitles).toEqual(['Opened in a browser']);
      // Headers the page may read only because the service exposes them.
      expect(result.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(result.rateLimitPolicy).toBe('"default";q=1200;w=60');
      expect(result.rateLimit).toMatch(/^"default";r=\d+;t=\d+$/);
      expect(result.wwwAuthenticate).toBe('Bearer');
      expect(result.received.content).toBe('hello from the page');
      expect(result.received.id).toMatch(/^\d+$/);
      // The ticket travelled in a URL, yet no log line holds it.
      expect(api.output()).toContain('/api/v1/chat/events?ticket=[redacted]');
      expect(api.output()).not.toContain(result.ticket);
      // Only the anonymous call's 401, which the page asked for: no CORS refusal.
      expect(consoleErrors).toEqual([expect.stringContaining('status of 401')]);
      await page.close();
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    'is refused by the browser when its origin is not listed',
    async () => {
      const page = await browser.newPage();
      // The same page, served from another origin (localhost instead of 127.0.0.1): not in CORS_ORIGINS.
      await page.goto(`${pageOrigin.replace('127.0.0.1', 'localhost')}/?api=${encodeURIComponent(api.url)}`);
      const result = await resultOf(page);
      expect(result.error).toMatch(/Failed to fetch/);
      await page.close();
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    'can read the API reference at /docs under its security headers',
    async () => {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(String(error)));
      const res = await page.goto(`${api.url}/docs`);
      expect(res?.status()).toBe(200);
      await page.waitForSelector('.swagger-ui .info .title', { timeout: 30_000 });
      expect(await page.textContent('.swagger-ui .info .title')).toContain('Team Music Workspace API');
      expect(problems).toEqual([]);
      await page.close();
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
