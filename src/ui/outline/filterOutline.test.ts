import { describe, expect, it } from 'vitest'
import { AttemptResults } from '../../app/attemptResults'
import { compareRecorded } from '../../core/session'
import { loadSource } from '../../formats/load'
import { readCorpus } from '../../test/corpus'
import { generateSessionLog } from '../../test/generateSession'
import { buildOutline, type OutlineNode } from './buildOutline'
import { filterOutline, type OutlineView } from './filterOutline'

function outlineOf(text: string) {
  const source = loadSource(text)
  const results = new AttemptResults(source)
  const outline = buildOutline(source)
  const filtered = (view: OutlineView) =>
    filterOutline(outline.roots, view, (node) => results.summary(node.attempt))
  return { outline, filtered }
}

/** The kept tree as text: one line per node, indented by depth. */
function print(nodes: readonly OutlineNode[], depth = 0): string[] {
  return nodes.flatMap((node) => {
    const line = `${'  '.repeat(depth)}${node.kind === 'event' ? `· ${node.type} ${node.text}` : node.kind === 'attempt' ? node.id : node.label}`
    return 'children' in node ? [line, ...print(node.children, depth + 1)] : [line]
  })
}

const attemptIds = (nodes: readonly OutlineNode[]): string[] =>
  nodes.flatMap((node) =>
    node.kind === 'attempt' ? [node.id] : 'children' in node ? attemptIds(node.children) : [],
  )

describe('filterOutline', () => {
  const generated = generateSessionLog({
    targetChars: 400_000,
    deltas: 40,
    mismatchEvery: 13,
    stragglerEvery: 17,
    errorEvery: 11,
  })
  const { outline, filtered } = outlineOf(generated.text)

  it('nothing to filter gives the outline itself', () => {
    expect(filtered({ filter: 'all', query: '  ' })).toBe(outline.roots)
  })

  it('✗ only keeps exactly the attempts whose recorded message differs, under their turn and step', () => {
    const kept = filtered({ filter: 'mismatch', query: '' })
    expect(generated.mismatched.length).toBeGreaterThan(2)
    expect(attemptIds(kept)).toEqual(generated.mismatched)
    // The same set as the recorded comparison computed on its own.
    const differing = outline.attempts.filter((node) => compareRecorded(node.attempt)?.match === false)
    expect(differing.map((node) => node.id)).toEqual(generated.mismatched)
    const [turn, step] = generated.mismatched[0]!.split('.')
    expect(print(kept).slice(0, 3)).toEqual([
      `Turn ${turn!.slice(1)}`,
      `  Step ${step!.slice(1)}`,
      `    ${generated.mismatched[0]}`,
    ])
  })

  it('with findings and errors: the planted stragglers and mismatches; errors adds the failed tool results', () => {
    const withFindings = attemptIds(filtered({ filter: 'findings', query: '' }))
    const planted = [...new Set([...generated.mismatched, ...generated.stragglers])]
    expect(withFindings.sort()).toEqual(planted.sort())
    const errors = filtered({ filter: 'errors', query: '' })
    expect(attemptIds(errors).sort()).toEqual(planted.sort())
    const failedResults = print(errors).filter((line) => line.includes('tool/result'))
    expect(failedResults).toHaveLength(generated.toolErrors.length)
    expect(failedResults.every((line) => line.endsWith('· isError'))).toBe(true)
  })

  it('a search for a turn keeps the turn whole; a search for a tool keeps its calls and results', () => {
    const turn = print(filtered({ filter: 'all', query: 'turn 3' }))
    expect(turn[0]).toBe('Turn 3')
    // A substring search: Turn 30… match too; Turn 3 keeps all its steps.
    expect(turn.filter((line) => line.startsWith('Turn')).every((line) => line.startsWith('Turn 3'))).toBe(
      true,
    )
    expect(turn.slice(0, turn.indexOf('Turn 30')).filter((line) => line.startsWith('  Step'))).toHaveLength(4)

    const { filtered: corpus } = outlineOf(readCorpus('headless-agent-tool-outcome-unknown-session.jsonl'))
    expect(print(corpus({ filter: 'all', query: 'WRITE_remote' }))).toEqual([
      'Turn 1',
      '  Step 1',
      '    · tool/call write_remote',
      '    · tool/result write_remote · isError',
    ])
    expect(print(corpus({ filter: 'errors', query: 'write' }))).toEqual([
      'Turn 1',
      '  Step 1',
      '    · tool/result write_remote · isError',
    ])
    expect(corpus({ filter: 'mismatch', query: 'write' })).toEqual([])
  })
})
