/** Helpers shared by the benchmarks (no bench* export: bench/run.ts imports this file and runs nothing from it). */
import { createSeededRng } from '../server/src/shared/rng.ts'

/** 99th percentile (nearest rank) of samples in any order. */
export function p99(samples: number[]): number {
  const sorted = samples.slice().sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.99) - 1)]
}

export function mean(samples: number[]): number {
  return samples.reduce((a, b) => a + b, 0) / samples.length
}

/** A reproducible extraction order of 1..ballCount for a benchmark game (seeded Fisher-Yates). */
export function ballOrder(seed: string, ballCount: number): number[] {
  const rng = createSeededRng(seed)
  const balls = Array.from({ length: ballCount }, (_, i) => i + 1)
  for (let j = ballCount - 1; j > 0; j--) {
    const r = rng.nextInt(j + 1)
    ;[balls[j], balls[r]] = [balls[r], balls[j]]
  }
  return balls
}
