// The ledger's public API (signatures documented in README.md next to this file).
export { grant, type GrantInput } from './grant';
export { openingGrant, type OpeningInput } from './opening';
export { charge, chargeBatch, chargeGroup, type ChargeInput, type ChargeOutcome, type GroupChargeInput } from './charge';
export { holdForJob, postFromHold, voidHold, getHold, openHolds, holdsOfJob, type HoldInput, type PostInput, type VoidInput } from './holds';
export { availableFor, availableSql, balanceOf } from './balance';
export { ledgerWrites } from './tx';
export { checkInvariants, assertInvariants, checkSinceCheckpoint, fullCheck, LedgerInvariantError, type CheckResult, type Violation } from './invariants';
export { advanceCheckpoint, readCheckpoint, writeCheckpoint, type Checkpoint } from './checkpoint';
export { startCheckpointer, CHECKPOINT_EVERY_MS, type Checkpointer } from './checkpointer';
export { startLedger, type ReleasedHold } from './start';
export { availableChange, latestTransfersOf, transfersOf, type LedgerLine, type LedgerLineWithBalance } from './history';
export { findTransfer } from './append';
export { bookUpstreamSpend, upstreamAccounts, upstreamItemsOf, type UpstreamAccounts, type UpstreamSpendInput } from './upstream';
export * from './types';
