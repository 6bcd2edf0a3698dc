import { fail } from '../errors';
import { MAX_AMOUNT } from './types';

export function checkAmount(amount: unknown, { min = 0 } = {}): number {
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < min || amount > MAX_AMOUNT) {
    throw fail.invalid('amount', `must be a whole number of credits between ${min} and ${MAX_AMOUNT}, not ${String(amount)}.`);
  }
  return amount;
}

export function checkTransferId(id: unknown, name = 'transferId'): string {
  if (typeof id !== 'string' || id.length < 1 || id.length > 200) {
    throw fail.invalid(name, 'must be a string of 1 to 200 characters.');
  }
  return id;
}

export function checkWholeId(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw fail.invalid(name, `must be a positive whole number, not ${String(value)}.`);
  }
  return value;
}
