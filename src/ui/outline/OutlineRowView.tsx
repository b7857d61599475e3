import { chunksOf } from '../../core/chunkList'
import { DerivedBadge } from '../share/DerivedBadge'
import { memo, type KeyboardEvent } from 'react'
import { useT } from '../i18n/useT'
import type { T } from '../i18n/translate'
import { SEVERITY_ICON } from '../findings/severity'
import type { AttemptSummary } from '../../core/attemptSummary'
import type { OutlineNode } from './buildOutline'
import type { OutlineRow } from './flattenOutline'
import { markHiddenChars } from '../hiddenChars'
import type { Tone } from './describeEvent'

export const TONE: Record<Tone, string> = {
  muted: 'text-slate-600 dark:text-slate-300',
  warning: 'text-amber-700 dark:text-amber-400',
  error: 'text-red-600 dark:text-red-400',
}

/** Every row is this tall (the virtual list places rows by it). */
export const ROW_HEIGHT = 24

type Props = {
  readonly row: OutlineRow
  /**
   * Offset from the top of the tree for a row placed on its own (the tabbable row kept outside the rendered range);
   * null for a row of the range, which lies in the list's flow: a row that an expand only moves keeps its props.
   */
  readonly top: number | null
  readonly summary: AttemptSummary | null
  readonly selected: boolean
  readonly focused: boolean
  readonly onActivate: (row: OutlineRow) => void
  readonly onFocusRow: (id: string) => void
  readonly onKeyDown: (event: KeyboardEvent, row: OutlineRow) => void
}

/**
 * One treeitem of the outline (flat list with aria-level, WAI-ARIA tree pattern). Memoized: the tree re-renders on
 * every scroll and expand, and only the rows whose state changed need to (a row that only moves keeps its props).
 */
export const OutlineRowView = memo(function OutlineRowView({
  row,
  top,
  summary,
  selected,
  focused,
  onActivate,
  onFocusRow,
  onKeyDown,
}: Props) {
  const t = useT()
  const { node } = row
  const isAttempt = node.kind === 'attempt'
  return (
    <li
      role="treeitem"
      id={`outline-${node.id}`}
      data-key={node.id}
      aria-level={row.level}
      aria-setsize={row.setSize}
      aria-posinset={row.posInSet}
      aria-expanded={row.expanded ?? undefined}
      aria-selected={isAttempt ? selected : undefined}
      tabIndex={focused ? 0 : -1}
      title={titleOf(node, summary, t)}
      onClick={(event) => {
        event.stopPropagation()
        onFocusRow(node.id)
        onActivate(row)
      }}
      onKeyDown={(event) => onKeyDown(event, row)}
      style={{
        paddingLeft: 4 + (row.level - 1) * 12,
        height: ROW_HEIGHT,
        transform: top === null ? undefined : `translateY(${top}px)`,
      }}
      className={`${top === null ? 'relative' : 'absolute inset-x-0 top-0'} flex cursor-default items-center gap-1 pr-2 text-xs whitespace-nowrap select-none focus-visible:-outline-offset-2 ${
        selected
          ? 'bg-sky-100 text-sky-950 dark:bg-sky-900/70 dark:text-sky-50'
          : 'hover:bg-slate-100 dark:hover:bg-slate-800'
      }`}
    >
      <span aria-hidden className="w-3 shrink-0 text-center text-[10px] text-slate-600">
        {row.expanded === null ? '' : row.expanded ? '▾' : '▸'}
      </span>
      <RowContent node={node} summary={summary} />
    </li>
  )
})

function RowContent({
  node,
  summary,
}: {
  readonly node: OutlineNode
  readonly summary: AttemptSummary | null
}) {
  const t = useT()
  switch (node.kind) {
    case 'session':
      return <span className="truncate font-medium">{node.label}</span>
    case 'turn':
      return (
        <>
          <span className="font-medium">{node.label}</span>
          <span className={`ml-auto truncate pl-2 ${TONE[node.end.tone]}`}>
            {markHiddenChars(node.end.text)}
          </span>
        </>
      )
    case 'step': {
      const attempts = node.children.filter((child) => child.kind === 'attempt').length
      return (
        <>
          <span>{node.label}</span>
          {attempts !== 1 && (
            <span className="ml-auto pl-2 text-slate-600 dark:text-slate-400">
              {attempts === 0 ? t('outline.noStream') : t('outline.attempts', { count: attempts })}
            </span>
          )}
        </>
      )
    }
    case 'event':
      return (
        <span className={`min-w-0 truncate text-[11px] ${TONE[node.tone]}`}>
          <span className="font-mono">{node.type}</span>
          {node.text && ` ${markHiddenChars(node.text)}`}
        </span>
      )
    case 'attempt':
      return <AttemptContent label={node.label} request={node.request} summary={summary} />
  }
}

function AttemptContent({
  label,
  request,
  summary,
}: {
  readonly label: string
  readonly request: string | undefined
  readonly summary: AttemptSummary | null
}) {
  return (
    <>
      <span className="font-mono font-semibold">{label}</span>
      <DerivedBadge />
      {request !== undefined && (
        <span className="min-w-0 shrink truncate text-[11px] text-slate-600 dark:text-slate-300">
          {request}
        </span>
      )}
      {summary === null ? (
        <span className="text-slate-600">…</span>
      ) : (
        <>
          <span className={`min-w-0 truncate font-mono text-[11px] ${TONE[summary.tone]}`}>
            {summary.finish}
            {summary.code !== null && ` ${summary.code}`}
          </span>
          <span className="ml-auto flex shrink-0 items-center gap-1.5 pl-1 font-mono text-[11px]">
            {summary.errors > 0 && (
              <span className={SEVERITY_ICON.error.color}>
                {summary.errors}
                {SEVERITY_ICON.error.icon}
              </span>
            )}
            {summary.warnings > 0 && (
              <span className={SEVERITY_ICON.warning.color}>
                {summary.warnings}
                {SEVERITY_ICON.warning.icon}
              </span>
            )}
            <RecordedMark summary={summary} />
          </span>
        </>
      )}
    </>
  )
}

function RecordedMark({ summary }: { readonly summary: AttemptSummary }) {
  const mark = summary.recorded
  switch (mark.kind) {
    case 'none':
      return null
    case 'match':
      return <span className="text-emerald-600 dark:text-emerald-400">✓</span>
    case 'mismatch':
      return <span className="font-bold text-red-600 dark:text-red-400">✗</span>
    case 'uncited':
      return <span className="text-[10px] text-slate-600 dark:text-slate-400">uncited</span>
    case 'interrupted':
      return (
        <span className="text-[10px] text-amber-700 dark:text-amber-400">
          interrupted{' '}
          <span className={mark.match ? 'text-emerald-600 dark:text-emerald-400' : 'text-red-600'}>
            {mark.match ? '✓' : '✗'}
          </span>
        </span>
      )
  }
}

/** The row's tooltip: the full text that the row may truncate. */
function titleOf(node: OutlineNode, summary: AttemptSummary | null, t: T): string {
  switch (node.kind) {
    case 'session':
      return node.detail
    case 'turn':
      return `${node.label}: ${node.end.text}`
    case 'step':
      return node.label
    case 'event':
      return `seq ${node.seq} · ${node.type}${node.text ? ` ${node.text}` : ''}`
    case 'attempt': {
      const attempt = node.attempt
      const chunks = chunksOf(attempt)
      const seqs =
        chunks.length === 0
          ? t('outline.tip.noChunks')
          : `seq ${chunks.seqAt(0)}–${chunks.seqAt(chunks.length - 1)}`
      const parts = [
        t('outline.tip.attempt', { id: attempt.id, kind: attempt.kind, count: chunks.length, seqs }),
        node.requestDetail ?? '',
      ]
      if (summary !== null) {
        parts.push(`finish ${summary.finish}${summary.code !== null ? ` ${summary.code}` : ''}`)
        parts.push(t('outline.tip.counts', { errors: summary.errors, warnings: summary.warnings }))
        parts.push(recordedText(summary, attempt.recorded?.seq, t))
      }
      return parts.filter(Boolean).join('\n')
    }
  }
}

function recordedText(summary: AttemptSummary, seq: number | undefined, t: T): string {
  const mark = summary.recorded
  switch (mark.kind) {
    case 'none':
      return ''
    case 'match':
      return t('outline.tip.matches', { seq: String(seq) })
    case 'mismatch':
      return t('outline.tip.differs', { seq: String(seq) })
    case 'uncited':
      return t('outline.tip.uncited')
    case 'interrupted':
      return t(mark.match ? 'outline.tip.interruptedMatches' : 'outline.tip.interruptedDiffers', {
        seq: String(seq),
      })
  }
}
