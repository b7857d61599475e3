import { isStreamChunk } from '../../core/protocol'
import { CHUNK_STYLE } from '../chunkStyle'
import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'

/** Chunks shown either side of the cursor in the strip. */
const SPAN = 12

/**
 * The timeline reduced to a strip for the presenter: the chunks around the cursor as chips (applied ones solid, the
 * next one outlined); a click moves the cursor just past that chunk.
 */
export function TimelineStrip() {
  const t = useT()
  const engine = useChunkscope((s) => s.engine)
  const k = useChunkscope((s) => s.k)
  const { seekTo } = useChunkscope((s) => s.actions)
  if (engine === null) return null
  const from = Math.max(0, Math.min(k - SPAN, engine.total - 2 * SPAN))
  const to = Math.min(engine.total, from + 2 * SPAN)
  const chips = []
  for (let pos = from; pos < to; pos++) {
    const sourced = engine.chunks.at(pos)!
    const chunk = sourced.chunk
    const style = isStreamChunk(chunk) ? CHUNK_STYLE[chunk.type] : null
    const applied = pos < k
    chips.push(
      <li key={pos}>
        <button
          type="button"
          aria-current={pos === k - 1 ? 'step' : undefined}
          onClick={() => seekTo(pos + 1)}
          className={`rounded px-2 py-1 font-mono text-sm whitespace-nowrap ${style?.badge ?? 'bg-red-100 text-red-900'} ${
            // Not applied yet: greyed by colour, not opacity, so the label keeps its 4.5:1 contrast.
            applied ? '' : 'grayscale'
          } ${pos === k - 1 ? 'ring-2 ring-sky-600' : ''} ${pos === k ? 'outline-2 outline-dashed outline-slate-500' : ''}`}
        >
          {sourced.seq} {style?.label ?? String((chunk as { type?: unknown }).type)}
        </button>
      </li>,
    )
  }
  return (
    <nav
      aria-label={t('teach.strip')}
      className="shrink-0 border-t border-slate-200 px-2 py-2 dark:border-slate-700"
    >
      <ol className="flex gap-1 overflow-x-auto">{chips}</ol>
    </nav>
  )
}
