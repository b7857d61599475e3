/** A duration for people: `840 ms`, `2.35 s`, `14.2 s`, `3 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms * 10) / 10} ms`
  if (ms < 10_000) return `${(ms / 1000).toFixed(2)} s`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  const minutes = Math.floor(ms / 60_000)
  return `${minutes} min ${Math.round((ms - minutes * 60_000) / 1000)} s`
}

/** `1,234` or `12.5`: at most one decimal, thousands separated. */
export function formatNumber(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: value < 100 ? 1 : 0 })
}
