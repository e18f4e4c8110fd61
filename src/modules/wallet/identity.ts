/** Who a wallet pass shows: a user, or (for an API key) its team. */
export type WalletIdentity = {
  /** Stable and unique: `user-<uuid>` or `team-<id>`; the pass's serial number and barcode. */
  subject: string;
  name: string;
  /** A second line: the user's e-mail, or the key's name. */
  detail: string | null;
};
