import { lazyRequire } from '../../shared/lazy-module.ts';
import type { WalletIdentity } from './identity.ts';
import { PASS_ICONS } from './pass-icon.ts';
import type { AppleWalletSettings } from './wallet.config.ts';

const passkit = lazyRequire<typeof import('passkit-generator')>('passkit-generator');

/** An Apple Wallet identity pass (`.pkpass`: a zip with pass.json, manifest.json and its PKCS#7 signature). */
export function applePass(
  settings: AppleWalletSettings,
  organizationName: string,
  identity: WalletIdentity,
): Buffer {
  const { PKPass } = passkit();
  const pass = new PKPass(
    { ...PASS_ICONS },
    { signerCert: settings.certificate, signerKey: settings.key, wwdr: settings.wwdr },
    {
      formatVersion: 1,
      passTypeIdentifier: settings.passTypeIdentifier,
      teamIdentifier: settings.teamIdentifier,
      organizationName,
      serialNumber: identity.subject,
      description: `${organizationName} identity`,
      backgroundColor: 'rgb(31, 42, 68)',
      foregroundColor: 'rgb(255, 255, 255)',
      labelColor: 'rgb(190, 200, 220)',
    },
  );
  pass.type = 'generic';
  pass.primaryFields.push({ key: 'name', label: 'Name', value: identity.name });
  if (identity.detail) pass.secondaryFields.push({ key: 'detail', label: 'Account', value: identity.detail });
  pass.setBarcodes({ message: identity.subject, format: 'PKBarcodeFormatQR', messageEncoding: 'iso-8859-1' });
  return pass.getAsBuffer();
}
