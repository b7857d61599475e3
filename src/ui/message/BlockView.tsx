import { memo, useMemo } from 'react'
import type { ContentBlock } from '../../core/protocol'
import { TextTail } from '../blocks/TextTail'
import { BLOCK_ACCENT, OTHER_ACCENT } from '../chunkStyle'
import { HiddenCharsBadge } from '../HiddenCharsBadge'
import { ShownText } from '../ShownText'

type Props = {
  readonly block: ContentBlock
  readonly position: number
  /** Prefix of the accessible name, so two columns of one region never share a name ("Recorded block 1 · text"). */
  readonly label?: string
  /** Marks a block that differs from its counterpart in the other column. */
  readonly differs?: boolean
}

/**
 * One assembled block. Content is always rendered as text: streams are untrusted input. Long texts show their tail
 * (a 60 MB text laid out whole took the tab to gigabytes); hidden characters show as marks and get a badge.
 * Memoized: a step re-renders the message, and the recorded column and the frozen blocks stay the same objects.
 */
export const BlockView = memo(function BlockView({
  block,
  position,
  label = 'Block',
  differs = false,
}: Props) {
  const accent = (BLOCK_ACCENT[block.type] ?? OTHER_ACCENT).border
  const ring = differs ? 'ring-1 ring-amber-400 dark:ring-amber-600' : ''
  const texts = useMemo(() => blockTexts(block), [block])
  return (
    <article
      aria-label={`${label} ${position} · ${block.type}`}
      className={`rounded border border-l-4 border-slate-200 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900 ${accent} ${ring}`}
    >
      <h3 className="mb-0.5 text-[11px] font-medium tracking-wide text-slate-600 dark:text-slate-300">
        {label} {position} · {block.type}
        {differs && <span className="ml-1 text-amber-700 dark:text-amber-400">differs</span>}
        <HiddenCharsBadge texts={texts} />
      </h3>
      <BlockBody block={block} />
    </article>
  )
})

function BlockBody({ block }: { readonly block: ContentBlock }) {
  if ((block.type === 'text' || block.type === 'reasoning') && typeof block['text'] === 'string') {
    const style = block.type === 'reasoning' ? 'text-slate-600 italic dark:text-slate-300' : ''
    return <TextTail text={block['text']} mark={0} className={style} />
  }
  if (block.type === 'tool-call') {
    const { id, name, arguments: args } = block as { id?: unknown; name?: unknown; arguments?: unknown }
    return (
      <div className="space-y-0.5">
        <p className="text-xs">
          <span className="font-mono font-semibold">
            <ShownText text={String(name)} />
          </span>{' '}
          <span className="font-mono text-[11px] text-slate-600 dark:text-slate-300">
            <ShownText text={String(id)} />
          </span>
        </p>
        <TextTail text={String(args)} mark={0} mono className="break-all" />
      </div>
    )
  }
  return <TextTail text={JSON.stringify(block, null, 2)} mark={0} mono className="break-all" />
}

/** The strings of a block a reader sees: its text, or a tool call's name, id and arguments. */
function blockTexts(block: ContentBlock): readonly string[] {
  const record = block as Record<string, unknown>
  return ['text', 'name', 'id', 'arguments'].flatMap((key) =>
    typeof record[key] === 'string' ? [record[key]] : [],
  )
}
