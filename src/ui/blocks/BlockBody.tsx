import { showValue } from '../../core/checks'
import { useMemo } from 'react'
import type { BlockFrame } from '../../core/ReplayEngine'
import { blockFields } from './buildBlockCard'
import { buildJsonTree } from './buildJsonTree'
import { JsonStatus, JsonTreeView } from './JsonTreeView'
import { ShownText } from '../ShownText'
import { TextTail } from './TextTail'
import { useT } from '../i18n/useT'

type Props = {
  readonly block: BlockFrame
  readonly mark: { readonly text: number; readonly arguments: number }
  readonly markClass: string
}

/** Above this size the arguments are shown as text only: a live tree would cost too much per step. */
const TREE_LIMIT = 200_000

/** The block's content: the authoritative block once frozen, else what the deltas built so far. */
export function BlockBody({ block, mark, markClass }: Props) {
  if (block.block !== undefined) {
    const fields = blockFields(block.block)
    if (fields.type === 'tool-call' || fields.arguments !== null)
      return (
        <ToolCall id={fields.id} name={fields.name} args={fields.arguments ?? ''} mark={0} markClass="" />
      )
    return (
      <>
        {fields.text !== null && <TextTail text={fields.text} mark={0} />}
        {fields.other !== null && <TextTail text={fields.other} mark={0} mono className="break-all" />}
      </>
    )
  }
  const type = block.life.blockType
  if (type === 'tool-call')
    return (
      <ToolCall
        // A chunk file may carry any JSON as an id or name: text for display, never an object.
        id={block.toolCallId === undefined ? null : showValue(block.toolCallId)}
        name={block.toolCallName === undefined ? null : showValue(block.toolCallName)}
        args={block.toolCallArguments}
        mark={mark.arguments}
        markClass={markClass}
      />
    )
  if (type === 'text' || type === 'reasoning')
    return <TextTail text={block.text} mark={mark.text} markClass={markClass} />
  return (
    <>
      {block.text !== '' && <TextTail text={block.text} mark={mark.text} markClass={markClass} />}
      {block.toolCallArguments !== '' && (
        <TextTail text={block.toolCallArguments} mark={mark.arguments} markClass={markClass} mono />
      )}
    </>
  )
}

type ToolCallProps = {
  readonly id: string | null
  readonly name: string | null
  readonly args: string
  readonly mark: number
  readonly markClass: string
}

function ToolCall({ id, name, args, mark, markClass }: ToolCallProps) {
  const t = useT()
  const tree = useMemo(() => (args.length > TREE_LIMIT ? null : buildJsonTree(args)), [args])
  return (
    <div className="space-y-1">
      <p className="flex flex-wrap items-baseline gap-x-2 text-xs">
        <span className="font-mono font-semibold">
          {name === null ? (
            <span className="font-normal text-slate-600 italic dark:text-slate-300">{t('tool.noName')}</span>
          ) : (
            <ShownText text={name || "''"} />
          )}
        </span>
        <span className="font-mono text-[11px] text-slate-600 dark:text-slate-300">
          {id === null ? t('tool.noId') : id === '' ? "id ''" : <ShownText text={id} />}
        </span>
      </p>
      <TextTail text={args} mark={mark} markClass={markClass} mono />
      {tree === null ? (
        <p className="text-[11px] text-slate-600 dark:text-slate-300">
          {t('tool.tooLong', { count: args.length })}
        </p>
      ) : (
        args !== '' && (
          <details open className="rounded bg-slate-50 px-1.5 py-1 dark:bg-slate-800/60">
            <summary className="cursor-pointer text-[11px] marker:text-slate-500">
              <JsonStatus tree={tree} />
            </summary>
            <JsonTreeView tree={tree} />
          </details>
        )
      )}
    </div>
  )
}
