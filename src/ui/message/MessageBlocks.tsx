import type { ContentBlock } from '../../core/protocol'
import type { MessageDiff } from '../blocks/buildDiff'
import { BlockView } from './BlockView'

type Props = {
  readonly blocks: readonly ContentBlock[] | null
  /** The recorded content, shown in a second column; null for a stream with no recorded message. */
  readonly recorded: readonly ContentBlock[] | null
  readonly differing: MessageDiff | null
}

/** The assembled blocks, and beside them the recorded ones with the differing blocks outlined. */
export function MessageBlocks({ blocks, recorded, differing }: Props) {
  const differs = new Set(differing?.blocks.map((b) => b.position) ?? [])
  const assembled = (
    <div className="min-w-0 space-y-1">
      {blocks !== null && blocks.length === 0 && <p className="text-xs text-slate-500 italic">(no blocks)</p>}
      {(blocks ?? []).map((block, position) => (
        <BlockView key={position} block={block} position={position} />
      ))}
    </div>
  )
  if (recorded === null) return assembled
  return (
    <div className="grid grid-cols-2 gap-2">
      <div className="min-w-0">
        <h3 className="mb-0.5 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">Assembled</h3>
        {assembled}
      </div>
      <div className="min-w-0 space-y-1">
        <h3 className="mb-0.5 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">Recorded</h3>
        {recorded.length === 0 && <p className="text-xs text-slate-500 italic">(no blocks)</p>}
        {recorded.map((block, position) => (
          <BlockView
            key={position}
            block={block}
            position={position}
            label="Recorded block"
            differs={differs.has(position) || position >= (differing?.counts.before ?? Infinity)}
          />
        ))}
      </div>
    </div>
  )
}
