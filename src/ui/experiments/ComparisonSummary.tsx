import type { StreamComparison } from '../../core/experiments/compareStreams'
import { describeOutcomeDiff } from '../../core/experiments/outcome'

const clip = (text: string, from: number) => {
  const rest = text.slice(from)
  return JSON.stringify(rest.length > 48 ? `${rest.slice(0, 48)}…` : rest)
}

/** The final message and findings of two streams side by side: what differs, block by block, and the rules. */
export function ComparisonSummary({
  comparison,
  before,
  after,
}: {
  readonly comparison: StreamComparison
  readonly before: string
  readonly after: string
}) {
  const { diff, blocks, onlyA, onlyB } = comparison
  const rules = (list: StreamComparison['onlyA']) =>
    list.map(({ rule, count }) => (count > 1 ? `${rule} ×${count}` : rule)).join(', ')
  return (
    <div
      data-testid="comparison"
      className="flex flex-col gap-1 rounded border border-slate-200 p-1.5 dark:border-slate-700"
    >
      <p className="font-medium">
        {diff === null ? 'Same final message and findings' : describeOutcomeDiff(diff)}
      </p>
      <ul className="flex flex-col gap-0.5">
        {blocks.map((b) => (
          <li key={b.position} className={b.field === null ? 'text-slate-500' : ''}>
            block {b.position}{' '}
            {b.a === null || b.b === null
              ? `only in ${b.a === null ? after : before} (${(b.a ?? b.b)!.type} ${clip((b.a ?? b.b)!.content, 0)})`
              : b.field === null
                ? `${b.a.type}: same (${b.a.deltas === b.b.deltas ? `${b.a.deltas} deltas` : `${b.a.deltas} vs ${b.b.deltas} deltas`})`
                : `${b.a.type}: ${b.field} differs after ${b.commonPrefix} characters — ${before} ${clip(b.a.content, b.commonPrefix)}, ${after} ${clip(b.b.content, b.commonPrefix)}`}
          </li>
        ))}
      </ul>
      {onlyA.length > 0 && (
        <p>
          Findings only in {before}: {rules(onlyA)}
        </p>
      )}
      {onlyB.length > 0 && (
        <p>
          Findings only in {after}: {rules(onlyB)}
        </p>
      )}
    </div>
  )
}
