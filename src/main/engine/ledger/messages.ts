// The 402 wording, one place: what it costs, what is available, and how to add more.
export const ADD_CREDITS_HINT = "Add credits in the app's settings or with 'skein credits grant'.";

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;
const are = (n: number) => `${n} ${n === 1 ? 'is' : 'are'} available`;

export function notEnoughCredits(what: 'request' | 'job', cost: number, available: number, upTo: boolean): string {
  return `Not enough credits: this ${what} ${upTo ? 'can cost up to' : 'costs'} ${credits(cost)} and ${are(Math.max(0, available))}. ${ADD_CREDITS_HINT}`;
}
