// Spec section 1: any alphanumeric run of 25 or more characters is treated as a wallet address
// (callers verify it themselves). ASCII letters and digits only: base58 and hex addresses are ASCII,
// and a long word in another script is not an address. Empty string when the text has none, so the
// field keeps the spec's type (string) in every row.
const WALLET = /[A-Za-z0-9]{25,}/;

export function walletAddress(text: string): string {
  return WALLET.exec(text)?.[0] ?? '';
}
