import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'

const BASELINE = 'bench/baseline.json'
const LATEST = 'bench-results/latest.json'

/** The committed baseline (numbers from an earlier run on this kind of machine), or nothing. */
export function loadBaseline(): Record<string, number> {
  return existsSync(BASELINE) ? (JSON.parse(readFileSync(BASELINE, 'utf8')) as Record<string, number>) : {}
}

/** Merges this bench's numbers into bench-results/latest.json (copy it to bench/baseline.json to rebase). */
export function saveResults(results: Record<string, number>): void {
  mkdirSync('bench-results', { recursive: true })
  const previous = existsSync(LATEST)
    ? (JSON.parse(readFileSync(LATEST, 'utf8')) as Record<string, number>)
    : {}
  writeFileSync(LATEST, JSON.stringify({ ...previous, ...results }, null, 2) + '\n')
}
