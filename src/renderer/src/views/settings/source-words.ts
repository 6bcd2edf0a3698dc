import type { UpstreamKeyInfo, UpstreamModeName, UpstreamProfileName, UpstreamSpendRow } from '../../../../shared/contract';
import { fmtInt } from '../../format';

// Words and numbers of Settings > Sources, kept apart from the layout.

const usdCents = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });
// At $0.0002 an item a few reads cost fractions of a cent: four decimals keep them visible.
const usdSmall = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 4 });

export const fmtUsd = (n: number) => (n !== 0 && Math.abs(n) < 1 ? usdSmall : usdCents).format(n);

/** "1,234 items · $0.2468" */
export const itemsAndUsd = (items: number, usd: number) => `${fmtInt(items)} ${items === 1 ? 'item' : 'items'} · ${fmtUsd(usd)}`;

export const MODES: { value: UpstreamModeName; title: string; line: string }[] = [
  { value: 'offline', title: 'Offline', line: 'Only your corpus: nothing is fetched and nothing is spent.' },
  { value: 'cache-first', title: 'Cache first', line: 'A stored copy while it is fresh; otherwise fetched once, stored, and served.' },
  { value: 'refresh', title: 'Refresh', line: 'Always fetches the newest copy and stores it: every read is paid.' },
];

export const PROFILES: { value: UpstreamProfileName; label: string }[] = [
  { value: 'socialdata', label: 'SocialData API' },
  { value: 'spec', label: 'Another Skein' },
];

export const FRESH_LABELS = [
  ['page', 'Timeline pages'],
  ['post', 'Posts'],
  ['user', 'Users'],
  ['article', 'Articles'],
  ['space', 'Spaces'],
] as const;

export function keySourceWords(key: UpstreamKeyInfo): string {
  switch (key.source) {
    case 'keychain':
      return 'from the OS keychain';
    case 'environment':
      return `from ${key.env_var}`;
    case 'session':
      return 'typed here, kept until Skein stops';
    default:
      return 'no key';
  }
}

export function spenderWords(row: UpstreamSpendRow): string {
  const name = row.user_name ?? (row.api_user_id === null ? null : `user #${row.api_user_id}`);
  switch (row.via) {
    case 'app':
      return 'The app (browsing)';
    case 'cli':
      return 'skein command';
    case 'job':
      return `${name ?? 'unknown user'} (jobs)`;
    default:
      return `${name ?? 'unknown user'} (API reads)`;
  }
}
