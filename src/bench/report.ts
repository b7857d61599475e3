import { loadavg } from 'node:os'

/**
 * Printing for benchmarks: one table per bench, each number next to its baseline (a simpler way to do the same
 * job, and the figure recorded in bench/baseline.json when there is one). Numbers only; nothing passes or fails.
 */
export type Row = {
  readonly name: string
  readonly value: number
  readonly unit: string
  /** A reference measured in the same run (e.g. plain JSON.parse of the same bytes). */
  readonly reference?: { readonly label: string; readonly value: number }
  /** The budget this measure is held to (README.md, "Budgets"), as printed: `≤ 0.05 ms`. */
  readonly goal?: string
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
}

const fmt = (value: number): string =>
  !Number.isFinite(value) ? String(value) : Math.abs(value) >= 100 ? value.toFixed(0) : value.toPrecision(3)

export function printTable(title: string, rows: readonly Row[], saved: Record<string, number> = {}): void {
  console.log(`\n## ${title} (load average ${loadAverage()})`)
  console.log(
    `${'measure'.padEnd(44)} ${'value'.padStart(12)}  ${'unit'.padEnd(10)} ${'baseline file'.padStart(13)}  reference`,
  )
  for (const row of rows) {
    const base = saved[`${title}: ${row.name}`]
    const reference = row.reference ? `${row.reference.label}: ${fmt(row.reference.value)} ${row.unit}` : ''
    const ref = [reference, row.goal === undefined ? '' : `goal ${row.goal}`].filter(Boolean).join('; ')
    console.log(
      `${row.name.padEnd(44)} ${fmt(row.value).padStart(12)}  ${row.unit.padEnd(10)} ${(base === undefined ? '-' : fmt(base)).padStart(13)}  ${ref}`,
    )
  }
}

/** Results as a flat record, written to bench-results/latest.json so a run can become the next baseline. */
export function flatten(title: string, rows: readonly Row[]): Record<string, number> {
  return Object.fromEntries(rows.map((row) => [`${title}: ${row.name}`, row.value]))
}

/** The 1, 5 and 15 minute load averages, printed with each table: on a shared machine a figure means little alone. */
export function loadAverage(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(', ')
}
