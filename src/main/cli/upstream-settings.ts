import { SkeinError } from '../engine/errors';
import { MAX_PER_MINUTE, MODES, normalizeUpstreamUrl, PROFILES, type FreshKind, type UpstreamConfig, type UpstreamSettings } from '../engine/upstream';
import { intOption, UsageError } from './command';
import { parseFresh } from './upstream-format';

// What `skein upstream set` was given, checked, and merged onto what is stored: an option not
// given keeps its stored value (docs/decisions.md "Upstream: skein upstream set changes only what
// it is given"). Before, every set replaced the whole row, so `set --mode refresh` erased a budget.

export const SET_OPTIONS = {
  url: { type: 'string' },
  profile: { type: 'string' },
  mode: { type: 'string' },
  'per-minute': { type: 'string' },
  budget: { type: 'string' },
  fresh: { type: 'string', multiple: true },
  'confirm-over': { type: 'string' },
} as const;

/** Only what was on the command line; undefined is "not given". `budgetItems: null` is `--budget none`. */
export interface GivenSettings {
  url?: string;
  profile?: string;
  mode?: string;
  perMinute?: number;
  budgetItems?: number | null;
  freshMs: Partial<Record<FreshKind, number>>;
  confirmOverItems?: number;
}

/** Checks every given option before anything is read or stored: a mistake is exit code 2, nothing stored. */
export function givenSettings(values: Record<string, unknown>): GivenSettings {
  const url = values.url as string | undefined;
  if (url !== undefined) {
    try {
      normalizeUpstreamUrl(url);
    } catch (err) {
      if (err instanceof SkeinError) throw new UsageError(err.message);
      throw err;
    }
  }
  const profile = values.profile as string | undefined;
  if (profile !== undefined && !(PROFILES as readonly string[]).includes(profile)) throw new UsageError(`unknown --profile '${profile}' (use socialdata or spec).`);
  const mode = values.mode as string | undefined;
  if (mode !== undefined && !(MODES as readonly string[]).includes(mode)) throw new UsageError(`unknown --mode '${mode}' (use offline, cache-first or refresh).`);
  return {
    url,
    profile,
    mode,
    perMinute: intOption(values['per-minute'], 'per-minute', { min: 1, max: MAX_PER_MINUTE }),
    budgetItems: budgetOption(values.budget),
    freshMs: parseFresh((values.fresh as string[] | undefined) ?? []),
    confirmOverItems: intOption(values['confirm-over'], 'confirm-over'),
  };
}

/** `--budget ITEMS`, or `--budget none` to remove the budget (no cap on upstream spending). */
function budgetOption(value: unknown): number | null | undefined {
  if (value === 'none') return null;
  try {
    return intOption(value, 'budget');
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`${err.message.replace(/\.$/, '')}, or none to remove the budget.`);
    throw err;
  }
}

/**
 * The settings to store: each given option, else the stored value, else (first set) the engine's
 * default. The URL and profile have no default, so the first set needs both. The budget passes
 * through unchanged when not given, so it keeps counting from when it was set (budgetSetAtMs).
 */
export function mergedSettings(given: GivenSettings, stored: UpstreamConfig | null): UpstreamSettings {
  const url = given.url ?? stored?.url;
  const profile = given.profile ?? stored?.profile;
  if (url === undefined) throw new UsageError('--url URL is required on the first set (no upstream is set yet).');
  if (profile === undefined) throw new UsageError('--profile socialdata|spec is required on the first set (no upstream is set yet).');
  return {
    url,
    profile,
    mode: given.mode ?? stored?.mode,
    perMinute: given.perMinute ?? stored?.perMinute,
    budgetItems: given.budgetItems !== undefined ? given.budgetItems : (stored?.budgetItems ?? null),
    freshMs: given.freshMs,
    confirmOverItems: given.confirmOverItems,
  };
}

/** What a set changed, in words ("mode cache-first → refresh"); empty when nothing did. */
export function changes(before: UpstreamConfig, after: UpstreamConfig, fmt: { duration(ms: number): string; budget(items: number | null): string }): string[] {
  const out: string[] = [];
  const diff = (name: string, a: unknown, b: unknown, show: (v: never) => string = String) => {
    if (a !== b) out.push(`${name} ${show(a as never)} → ${show(b as never)}`);
  };
  diff('url', before.url, after.url);
  diff('profile', before.profile, after.profile);
  diff('mode', before.mode, after.mode);
  diff('per-minute', before.perMinute, after.perMinute);
  diff('budget', before.budgetItems, after.budgetItems, fmt.budget);
  for (const kind of Object.keys(after.freshMs) as FreshKind[]) diff(`fresh ${kind}`, before.freshMs[kind], after.freshMs[kind], fmt.duration);
  diff('confirm-over', before.confirmOverItems, after.confirmOverItems);
  return out;
}
