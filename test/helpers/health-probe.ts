import { Worker } from 'node:worker_threads';

/** One call of the probe: when it was sent (ms since the epoch) and how long its answer took. */
export type ProbeSample = { sentAt: number; waitMs: number };
/** One reading of the server's resident memory. */
export type RssSample = { at: number; bytes: number };

/**
 * Runs in a worker, so the test's own work (building and sending large bodies) never delays a probe or
 * its timing: calls `/api/v1/health` on one kept-alive connection, the next call 50 ms after the last
 * answer, and reads the server's resident memory from `/proc` every 50 ms. A call that is still waiting
 * is reported as waiting since it was sent.
 */
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { readFileSync } = require('node:fs');
const { url, pid, intervalMs } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
let samples = [];
let rss = [];
let pending;
let stopped = false;
const readRss = () => {
  try {
    const match = /VmRSS:\\s+(\\d+) kB/.exec(readFileSync('/proc/' + pid + '/status', 'utf8'));
    if (match) rss.push({ at: Date.now(), bytes: Number(match[1]) * 1024 });
  } catch {}
};
const memory = setInterval(readRss, intervalMs);
const probe = () => {
  if (stopped) return;
  const sentAt = Date.now();
  const start = performance.now();
  pending = { sentAt, start };
  const done = () => {
    if (pending?.sentAt !== sentAt) return;
    pending = undefined;
    samples.push({ sentAt, waitMs: performance.now() - start });
    setTimeout(probe, intervalMs);
  };
  const req = http.get(url + '/api/v1/health', { agent }, (res) => {
    res.resume();
    res.on('end', done);
    res.on('error', done);
  });
  req.on('error', done);
};
parentPort.on('message', (message) => {
  if (message === 'stop') {
    stopped = true;
    clearInterval(memory);
    agent.destroy();
    parentPort.postMessage({ samples, rss });
    return;
  }
  const waiting = pending ? [{ sentAt: pending.sentAt, waitMs: performance.now() - pending.start, waiting: true }] : [];
  parentPort.postMessage({ samples: [...samples, ...waiting], rss });
  samples = [];
  rss = [];
});
readRss();
probe();
`;

/** The `/api/v1/health` probe of one server process, with its memory readings. */
export class HealthProbe {
  private readonly worker: Worker;

  constructor(url: string, pid: number, intervalMs = 50) {
    this.worker = new Worker(PROBE, { eval: true, workerData: { url, pid, intervalMs } });
  }

  /** The calls answered (and the one still waiting) and memory readings since the last `take`. */
  take(): Promise<{ samples: (ProbeSample & { waiting?: boolean })[]; rss: RssSample[] }> {
    return this.ask('take');
  }

  async stop(): Promise<void> {
    await this.ask('stop');
    await this.worker.terminate();
  }

  private ask(message: string): Promise<{ samples: ProbeSample[]; rss: RssSample[] }> {
    return new Promise((resolve) => {
      this.worker.once('message', resolve);
      this.worker.postMessage(message);
    });
  }
}
