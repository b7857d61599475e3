import type { ReplayEngine } from '../../core/ReplayEngine'

export type Marker = {
  readonly at: number
  readonly tone: 'error' | 'warning' | 'info' | 'ignored'
  readonly title: string
}

/**
 * Scrubber markers for findings and ignored chunks, at most one per bucket (a pixel column, roughly) so a
 * million-chunk stream with a finding on every chunk still draws `buckets` marks. Errors outrank warnings,
 * warnings outrank ignored chunks, info comes last. `at` is the position just after the chunk (where it shows).
 */
export function buildMarkers(engine: ReplayEngine, buckets = 600): Marker[] {
  const total = Math.max(1, engine.total)
  const rank = { error: 3, warning: 2, ignored: 1, info: 0 } as const
  const best = new Map<number, Marker>()
  const offer = (pos: number, tone: Marker['tone'], title: string) => {
    const bucket = Math.floor((pos / total) * buckets)
    const current = best.get(bucket)
    if (current === undefined || rank[tone] > rank[current.tone])
      best.set(bucket, { at: pos + 1, tone, title })
  }
  for (const finding of engine.findings)
    offer(finding.pos, finding.severity, `${finding.rule} at seq ${finding.seq}`)
  for (const ignored of engine.ignored)
    offer(ignored.pos, 'ignored', `ignored ${ignored.kind} at seq ${ignored.seq}`)
  return [...best.values()].sort((a, b) => a.at - b.at)
}
