import { createHash, generateKeyPairSync, type KeyObject, verify, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';

/** The parts of node-forge the tests use (the package ships no types). */
type Asn1 = { tagClass: number; type: number; constructed: boolean; value: Asn1[] | string };
type ForgeCertificate = {
  publicKey: unknown;
  serialNumber: string;
  validity: { notBefore: Date; notAfter: Date };
  setSubject(attributes: { name: string; value: string }[]): void;
  setIssuer(attributes: { name: string; value: string }[]): void;
  setExtensions(extensions: object[]): void;
  sign(key: unknown, digest: unknown): void;
};
type Forge = {
  pki: {
    createCertificate(): ForgeCertificate;
    certificateToPem(certificate: ForgeCertificate): string;
    privateKeyFromPem(pem: string): unknown;
    publicKeyFromPem(pem: string): unknown;
  };
  md: { sha256: { create(): unknown } };
  asn1: {
    fromDer(bytes: string): Asn1;
    toDer(node: Asn1): { getBytes(): string };
    create(tagClass: number, type: number, constructed: boolean, value: Asn1[] | string): Asn1;
    derToOid(bytes: string): string;
    Class: { UNIVERSAL: number; CONTEXT_SPECIFIC: number };
    Type: { SET: number };
  };
};

const forge = createRequire(import.meta.url)('node-forge') as Forge;

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  data: '1.2.840.113549.1.7.1',
  messageDigest: '1.2.840.113549.1.9.4',
  sha1: '1.3.14.3.2.26',
};

function rsaPair() {
  return generateKeyPairSync('rsa', { modulusLength: 2048 });
}

const pemOf = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString();

/** A certificate for `publicKey`, signed by `issuerKey` (self-signed when no issuer is given). */
function certificate(
  subject: string,
  publicKey: KeyObject,
  issuerKey: KeyObject,
  issuer: string = subject,
  serial = '01',
): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = serial;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
  cert.setSubject([{ name: 'commonName', value: subject }]);
  cert.setIssuer([{ name: 'commonName', value: issuer }]);
  cert.setExtensions([{ name: 'basicConstraints', cA: subject === issuer }]);
  cert.sign(forge.pki.privateKeyFromPem(pemOf(issuerKey)), forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

export const GOOGLE_ISSUER_ID = '3388000000012345678';
export const GOOGLE_CLIENT_EMAIL = 'wallet@test-project.iam.gserviceaccount.com';

/**
 * Signing material made for the tests: a CA standing in for Apple's WWDR certificate, a pass certificate it
 * issued with its (encrypted) key, and a Google service account; `env` configures both platforms, each value
 * in another of the accepted forms (PEM text, a file path, PEM with escaped line breaks, JSON text).
 */
export function walletMaterial() {
  const ca = rsaPair();
  const signer = rsaPair();
  const google = rsaPair();
  const caPem = certificate('Test WWDR CA', ca.publicKey, ca.privateKey);
  const signerPem = certificate(
    'Pass Type ID: pass.test.identity',
    signer.publicKey,
    ca.privateKey,
    'Test WWDR CA',
    '02',
  );
  const passphrase = 'correct horse';
  const dir = mkdtempSync(join(tmpdir(), 'wallet-test-'));
  const keyPath = join(dir, 'pass-key.pem');
  writeFileSync(
    keyPath,
    signer.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase }).toString(),
  );
  const serviceAccount = JSON.stringify({
    type: 'service_account',
    client_email: GOOGLE_CLIENT_EMAIL,
    private_key: pemOf(google.privateKey),
  });
  return {
    dir,
    caPem,
    signerPem,
    signerKey: signer.privateKey,
    googlePublicKey: google.publicKey,
    serviceAccount,
    env: {
      WALLET_ORGANIZATION_NAME: 'Test Label',
      WALLET_APPLE_PASS_TYPE_ID: 'pass.test.identity',
      WALLET_APPLE_TEAM_ID: 'ABCDE12345',
      WALLET_APPLE_CERTIFICATE: signerPem,
      WALLET_APPLE_KEY: keyPath,
      WALLET_APPLE_KEY_PASSPHRASE: passphrase,
      WALLET_APPLE_WWDR_CERTIFICATE: caPem.trim().replaceAll('\n', '\\n'),
      WALLET_GOOGLE_ISSUER_ID: GOOGLE_ISSUER_ID,
      WALLET_GOOGLE_CLASS_ID: 'identity',
      WALLET_GOOGLE_SERVICE_ACCOUNT: serviceAccount,
    },
    cleanUp: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The files of a zip archive (stored or deflated entries), by name. */
export function readZip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip archive');
  const files = new Map<string, Buffer>();
  let entry = zip.readUInt32LE(end + 16);
  for (let i = zip.readUInt16LE(end + 10); i > 0; i--) {
    if (zip.readUInt32LE(entry) !== 0x02014b50) throw new Error('bad central directory');
    const method = zip.readUInt16LE(entry + 10);
    const size = zip.readUInt32LE(entry + 20);
    const nameLength = zip.readUInt16LE(entry + 28);
    const local = zip.readUInt32LE(entry + 42);
    const name = zip.toString('utf8', entry + 46, entry + 46 + nameLength);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    entry += 46 + nameLength + zip.readUInt16LE(entry + 30) + zip.readUInt16LE(entry + 32);
  }
  return files;
}

const children = (node: Asn1 | undefined): Asn1[] => {
  if (!node || !Array.isArray(node.value)) throw new Error('unexpected ASN.1 structure');
  return node.value;
};
const bytes = (node: Asn1 | undefined): string => {
  if (!node || typeof node.value !== 'string') throw new Error('unexpected ASN.1 structure');
  return node.value;
};
const isContext = (node: Asn1, tag: number) =>
  node.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && node.type === tag;

/**
 * Reads a PKCS#7 detached signature with node-forge and checks it over `content`: the signed message
 * digest (SHA-1) is the content's, and the signature over the signed attributes verifies with `signerCert`.
 */
export function checkDetachedSignature(signature: Buffer, content: Buffer, signerCert: X509Certificate) {
  const [type, wrapped] = children(forge.asn1.fromDer(signature.toString('binary')));
  const signedData = children(children(wrapped)[0]);
  const contentInfo = children(signedData[2]);
  const certificates = children(signedData.find((n) => isContext(n, 0))).map(
    (cert) => new X509Certificate(Buffer.from(forge.asn1.toDer(cert).getBytes(), 'binary')),
  );
  const signerInfo = children(children(signedData[signedData.length - 1])[0]);
  const attributes = signerInfo.find((n) => isContext(n, 0));
  const digestOid = forge.asn1.derToOid(bytes(children(signerInfo[2])[0]));
  const messageDigest = children(attributes)
    .map((attribute) => children(attribute))
    .find(([oid]) => forge.asn1.derToOid(bytes(oid)) === OID.messageDigest);
  const signed = forge.asn1.toDer(
    forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, children(attributes)),
  );
  const encryptedDigest = Buffer.from(bytes(signerInfo[signerInfo.length - 1]), 'binary');
  return {
    signedData: forge.asn1.derToOid(bytes(type)) === OID.signedData,
    detached: contentInfo.length === 1 && forge.asn1.derToOid(bytes(contentInfo[0])) === OID.data,
    digestIsSha1: digestOid === OID.sha1,
    digest: Buffer.from(bytes(children(messageDigest?.[1])[0]), 'binary').toString('hex'),
    signatureVerifies: verify(
      'sha1',
      Buffer.from(signed.getBytes(), 'binary'),
      signerCert.publicKey,
      encryptedDigest,
    ),
    certificates: certificates.map((c) => c.fingerprint256),
    contentDigest: createHash('sha1').update(content).digest('hex'),
  };
}
