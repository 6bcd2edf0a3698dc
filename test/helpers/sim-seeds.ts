// Kept apart from prng.ts, which the renderer's tests import too (typechecked without Node's types).

/** The seeds a simulation runs: the fixed CI list, or the one given in `envName` to replay or explore. */
export function seedsFrom(envName: string, ciSeeds: number[]): number[] {
  const given = process.env[envName];
  return given ? given.split(',').map((s) => Number(s.trim())) : ciSeeds;
}
