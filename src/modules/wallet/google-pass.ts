import { SignJWT } from 'jose';
import type { WalletIdentity } from './identity.ts';
import type { GoogleWalletSettings } from './wallet.config.ts';

const SAVE_URL = 'https://pay.google.com/gp/v/save/';

const text = (value: string) => ({ defaultValue: { language: 'en', value } });

/**
 * A Google Wallet "save" link: a JWT signed (RS256) with the service account's key, carrying a generic pass
 * object for the identity. Google creates or updates the object when the user saves it.
 */
export async function googleSaveUrl(
  settings: GoogleWalletSettings,
  organizationName: string,
  identity: WalletIdentity,
  now: Date,
): Promise<string> {
  const genericObject = {
    id: `${settings.issuerId}.${identity.subject}`,
    classId: settings.classId,
    state: 'ACTIVE',
    cardTitle: text(organizationName),
    header: text(identity.name),
    ...(identity.detail ? { subheader: text(identity.detail) } : {}),
    barcode: { type: 'QR_CODE', value: identity.subject },
    hexBackgroundColor: '#1f2a44',
  };
  const jwt = await new SignJWT({
    origins: [],
    typ: 'savetowallet',
    payload: { genericObjects: [genericObject] },
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(settings.clientEmail)
    .setAudience('google')
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .sign(settings.privateKey);
  return `${SAVE_URL}${jwt}`;
}
