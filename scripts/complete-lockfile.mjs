// Adds lock entries for platform-specific optional packages that the package
// registry in use does not serve (npm install leaves them out, npm ci then
// refuses the lock). Each entry carries os/cpu/libc so npm skips it elsewhere.
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;

const OSES = [
  'darwin',
  'linux',
  'win32',
  'android',
  'freebsd',
  'openbsd',
  'netbsd',
  'sunos',
  'aix',
  'openharmony',
];
const CPUS = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el', 'wasm32'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const entry = {};
  const os = OSES.find((o) => parts.includes(o));
  if (os) entry.os = [os];
  const cpu =
    CPUS.find((c) => parts.includes(c)) ??
    (parts.includes('eabi') || parts.includes('gnueabihf') ? 'arm' : undefined);
  if (cpu) entry.cpu = [cpu];
  if (parts.includes('musl') || parts.includes('musleabihf')) entry.libc = ['musl'];
  else if (os === 'linux' && (parts.includes('gnu') || parts.includes('gnueabihf'))) entry.libc = ['glibc'];
  return entry;
}

function resolveLocation(from, dep) {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${dep}`;
    if (packages[candidate]) return candidate;
    const cut = base.lastIndexOf('/node_modules/');
    if (base === '') return null;
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

let added = 0;
for (const [location, meta] of Object.entries({ ...packages })) {
  for (const [dep, range] of Object.entries(meta.optionalDependencies ?? {})) {
    if (resolveLocation(location, dep)) continue;
    const version = range.replace(/^[\^~=]/, '');
    const entry = { version, optional: true };
    if (meta.dev) entry.dev = true;
    if (meta.devOptional) entry.devOptional = true;
    Object.assign(entry, platformOf(dep));
    packages[`node_modules/${dep}`] = entry;
    added++;
  }
}

const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform entries`);
