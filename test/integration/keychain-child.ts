// Run by keychain.test.ts as a separate process (inside or outside a D-Bus session): exercises the
// real keytar through the adapter and prints one JSON line with what happened.
import { openKeychain } from '../../src/main/platform/keychain';

async function main(): Promise<void> {
  const status = await openKeychain(undefined, `Skein-test-${process.pid}`);
  if (!status.available) {
    console.log(JSON.stringify({ available: false, reason: status.reason }));
    return;
  }
  const k = status.keychain;
  await k.set('desktop-api-key', 'sk_secret_value_1');
  const read = await k.get('desktop-api-key');
  const missing = await k.get('never-set');
  let refused = '';
  try {
    await k.set('bad account!', 'x');
  } catch (err) {
    refused = (err as Error).message;
  }
  const deleted = await k.delete('desktop-api-key');
  const after = await k.get('desktop-api-key');
  console.log(JSON.stringify({ available: true, read, missing, refused, deleted, after }));
}

main().catch((err: unknown) => {
  console.log(JSON.stringify({ crashed: String((err as Error).stack ?? err) }));
  process.exit(1);
});
