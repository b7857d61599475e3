import type { ReplayFrame } from '../core/ReplayEngine'

/** A replay frame as short text, for inline snapshots: one line per block, then message, finish and counts. */
export function printFrame(frame: ReplayFrame): string {
  const lines = [`k=${frame.k}/${frame.total}`]
  for (const p of frame.partials) {
    const content =
      p.life.blockType === 'tool-call'
        ? `${p.toolCallId ?? '-'} ${p.toolCallName ?? '-'} ${p.toolCallArguments}`
        : p.text
    const flags = [p.state, p.life.implicit ? 'implicit' : '', p.differs ? 'differs' : '']
      .filter(Boolean)
      .join(',')
    lines.push(`  [${p.life.index}] ${p.life.blockType} (${flags}) ${JSON.stringify(content)}`)
  }
  lines.push(`  message: ${frame.blocks === null ? `ERROR ${frame.error}` : JSON.stringify(frame.blocks)}`)
  lines.push(
    `  finish: ${frame.hasFinish ? frame.finish.kind : 'none'}; usage: ${JSON.stringify(frame.usage)}`,
  )
  lines.push(`  last: ${frame.last === null ? '-' : `${frame.last.effect.kind}@${frame.last.chunk.seq}`}`)
  lines.push(`  findings: ${frame.findingCount}; ignored: ${frame.ignoredCount}`)
  return lines.join('\n')
}
