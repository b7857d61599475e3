import { useMemo, useState } from 'react'
import { useT } from '../i18n/useT'
import { compareStreams } from '../../core/experiments/compareStreams'
import { describeEdit, parseChunk } from '../../core/experiments/streamEdits'
import type { AnyChunk } from '../../core/protocol'
import { useChunkscope } from '../StoreContext'
import { ComparisonSummary } from './ComparisonSummary'
import type { WhatIf } from './useWhatIf'

const BUTTON =
  'rounded border border-slate-300 px-1.5 py-0.5 text-xs hover:bg-slate-100 disabled:opacity-40 dark:border-slate-600 dark:hover:bg-slate-800'

/**
 * Edits of the chunk at the cursor — drop, duplicate, move, edit its JSON (payload, index, type), insert one after
 * it — each re-assembled at once; the changed chunks are marked in the timeline and listed here, with the final
 * message and findings before and after.
 */
export function WhatIfTab({ whatIf }: { readonly whatIf: WhatIf }) {
  const t = useT()
  const engine = useChunkscope((s) => s.engine)
  const k = useChunkscope((s) => s.k)
  const { session } = whatIf
  const total = engine?.total ?? 0
  const pos = Math.max(0, Math.min(k - 1, total - 1))
  const chunk = engine?.chunks.at(pos)?.chunk
  const comparison = useMemo(
    () => (session?.edited ? compareStreams(session.base.attempt.chunks, session.edited.chunks) : null),
    [session],
  )
  if (engine === null || chunk === undefined)
    return <p className="p-2 text-xs text-slate-500">{t('whatIf.noStream')}</p>
  const history = session?.history
  return (
    <div className="flex flex-col gap-2 p-2 text-xs">
      <fieldset className="flex flex-wrap items-center gap-1" aria-label={t('whatIf.editAtCursor')}>
        <span className="mr-1 font-medium">
          {t('whatIf.chunk', { pos: String(pos), seq: String(engine.chunks.at(pos)!.seq) })}{' '}
          <code>{chunk.type}</code>
        </span>
        <button type="button" className={BUTTON} onClick={() => whatIf.edit({ kind: 'drop', pos }, pos)}>
          {t('whatIf.drop')}
        </button>
        <button
          type="button"
          className={BUTTON}
          onClick={() => whatIf.edit({ kind: 'duplicate', pos }, pos + 2)}
        >
          {t('whatIf.duplicate')}
        </button>
        <button
          type="button"
          className={BUTTON}
          disabled={pos === 0}
          onClick={() => whatIf.edit({ kind: 'move', from: pos, to: pos - 1 }, pos)}
        >
          {t('whatIf.moveUp')}
        </button>
        <button
          type="button"
          className={BUTTON}
          disabled={pos >= total - 1}
          onClick={() => whatIf.edit({ kind: 'move', from: pos, to: pos + 1 }, pos + 2)}
        >
          {t('whatIf.moveDown')}
        </button>
      </fieldset>
      <ChunkEditor
        key={`${engine.chunks.length}:${pos}:${JSON.stringify(chunk)}`}
        initial={JSON.stringify(chunk)}
        onReplace={(c) => whatIf.edit({ kind: 'replace', pos, chunk: c }, pos + 1)}
        onInsert={(c) => whatIf.edit({ kind: 'insert', pos: pos + 1, chunk: c }, pos + 2)}
      />
      <div className="flex flex-wrap items-center gap-1">
        <button type="button" className={BUTTON} disabled={!history?.done.length} onClick={whatIf.undo}>
          {t('whatIf.undo')}
        </button>
        <button type="button" className={BUTTON} disabled={!history?.undone.length} onClick={whatIf.redo}>
          {t('whatIf.redo')}
        </button>
        <button type="button" className={BUTTON} disabled={!history?.done.length} onClick={whatIf.reset}>
          {t('whatIf.reset')}
        </button>
        <span aria-live="polite" data-testid="what-if-history" className="text-slate-500">
          {history?.done.length
            ? t('whatIf.history', { edits: history.done.map(describeEdit).join(', ') })
            : t('whatIf.unedited')}
        </span>
      </div>
      {session?.edited && (
        <>
          <p data-testid="what-if-changed">
            {t('whatIf.changed', {
              list: session.edited.changed.length
                ? session.edited.changed.map((p) => `#${p}`).join(', ')
                : t('whatIf.none'),
            })}
            {session.edited.removed.length > 0 &&
              ` · ${t('whatIf.removed', { list: session.edited.removed.map((p) => `#${p}`).join(', ') })}`}
          </p>
        </>
      )}
      {comparison && (
        <ComparisonSummary
          comparison={comparison}
          before={t('whatIf.recording')}
          after={t('whatIf.editedName')}
        />
      )}
    </div>
  )
}

function ChunkEditor({
  initial,
  onReplace,
  onInsert,
}: {
  readonly initial: string
  readonly onReplace: (chunk: AnyChunk) => void
  readonly onInsert: (chunk: AnyChunk) => void
}) {
  const t = useT()
  const [text, setText] = useState(initial)
  const parsed = parseChunk(text)
  const error = typeof parsed === 'string' ? parsed : null
  return (
    <div className="flex flex-col gap-1">
      <label className="flex flex-col gap-0.5">
        <span className="text-slate-500">{t('whatIf.json')}</span>
        <textarea
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={3}
          spellCheck={false}
          className="rounded border border-slate-300 p-1 font-mono text-[11px] dark:border-slate-600 dark:bg-slate-800"
        />
      </label>
      {error !== null && (
        <p role="alert" className="text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      <div className="flex gap-1">
        <button
          type="button"
          className={BUTTON}
          disabled={error !== null || text === initial}
          onClick={() => typeof parsed !== 'string' && onReplace(parsed)}
        >
          {t('whatIf.apply')}
        </button>
        <button
          type="button"
          className={BUTTON}
          disabled={error !== null}
          onClick={() => typeof parsed !== 'string' && onInsert(parsed)}
        >
          {t('whatIf.insert')}
        </button>
      </div>
    </div>
  )
}
