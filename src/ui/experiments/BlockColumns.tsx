import type { BlockComparison, BlockSide } from '../../core/experiments/compareStreams'
import { useT } from '../i18n/useT'
import { diffSpans, type DiffParts } from './diffSpan'

/** Blocks shown at most; a stream with more lists the rest in the summary only. */
const MAX_BLOCKS = 200

/**
 * The two streams' blocks in two columns, aligned by block (docs/protocol.md §13, "Compare"): each side's text,
 * reasoning or arguments with the span where they part marked (common prefix and suffix left plain).
 */
export function BlockColumns({
  blocks,
  before,
  after,
}: {
  readonly blocks: readonly BlockComparison[]
  readonly before: string
  readonly after: string
}) {
  const t = useT()
  if (blocks.length === 0) return null
  return (
    <table
      aria-label={t('compare.columns')}
      data-testid="block-columns"
      className="w-full table-fixed border-collapse"
    >
      <thead>
        <tr className="text-left text-slate-500">
          <th scope="col" className="w-1/2 px-1 font-medium">
            {before}
          </th>
          <th scope="col" className="w-1/2 px-1 font-medium">
            {after}
          </th>
        </tr>
      </thead>
      <tbody>
        {blocks.slice(0, MAX_BLOCKS).map((block) => {
          const spans =
            block.a !== null && block.b !== null ? diffSpans(block.a.content, block.b.content) : null
          return (
            <tr
              key={block.position}
              data-differs={block.field !== null}
              className="border-t border-slate-200 align-top dark:border-slate-700"
            >
              <Side side={block.a} parts={spans?.a ?? null} block={block} />
              <Side side={block.b} parts={spans?.b ?? null} block={block} />
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}

function Side({
  side,
  parts,
  block,
}: {
  readonly side: BlockSide | null
  readonly parts: DiffParts | null
  readonly block: BlockComparison
}) {
  const t = useT()
  if (side === null) return <td className="px-1 text-slate-500 italic">{t('compare.noBlock')}</td>
  return (
    <td className="px-1">
      <div className="flex gap-1 text-slate-500">
        <span>{t('compare.block', { position: block.position, type: side.type })}</span>
        <span className={block.field === null ? '' : 'text-amber-800 dark:text-amber-300'}>
          · {block.field === null ? t('compare.same') : t('compare.differs', { field: block.field })}
        </span>
      </div>
      <p className="max-h-32 overflow-auto font-mono text-[11px] break-all whitespace-pre-wrap">
        {parts === null ? (
          side.content
        ) : (
          <>
            {parts.before}
            {parts.changed !== '' && (
              <mark className="rounded-sm bg-amber-200 text-inherit dark:bg-amber-700/70">
                {parts.changed}
              </mark>
            )}
            {parts.after}
          </>
        )}
      </p>
    </td>
  )
}
