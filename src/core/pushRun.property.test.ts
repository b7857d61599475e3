import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AssemblyPass } from './analyzeStream'
import { BlockAssembler, type RunOfDeltas } from './BlockAssembler'
import type { AnyChunk } from './protocol'
import { knownChunk, oddChunk } from '../test/arbitraries'
import { bs, td } from '../test/chunks'

/*
 * A packed row's members (docs/protocol.md §7) taken whole by AssemblyPass.pushRun must leave exactly what pushing
 * each member's delta leaves: the same blocks, throws, findings and ignored chunks, the same assembler state for
 * every chunk that follows, whether the row lands in an open block, a closed one, one of another type, after a
 * finish or a throw, or at an index that is no index.
 */

/** Member k's chunk as §7 defines it: the row's delta type, index and id on each, `name` exactly when it has one. */
function memberChunk(run: RunOfDeltas, k: number): AnyChunk {
  const { deltaType: type, index } = run
  const member = run.payload[k]
  if (type !== 'tool-call-delta') return { type, index, text: member } as AnyChunk
  return (
    run.hasName
      ? { type, index, id: run.id, name: run.name, argumentsDelta: member }
      : { type, index, id: run.id, argumentsDelta: member }
  ) as AnyChunk
}

const runIndex = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(-1, 1.5, '0', null, Number.NaN) },
)
const deltaType = fc.constantFrom('text-delta', 'reasoning-delta', 'tool-call-delta' as const)
const run: fc.Arbitrary<RunOfDeltas> = fc.record({
  deltaType,
  index: runIndex,
  // Rows hold strings (§7); a stray non-string must still give what pushing it gives.
  payload: fc.array(
    fc.oneof(
      { weight: 20, arbitrary: fc.string() },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 5) },
    ),
    { minLength: 1, maxLength: 6 },
  ),
  id: fc.constantFrom('call_1', 'call_2', ''),
  hasName: fc.boolean(),
  name: fc.constantFrom('bash', 'read', ''),
})

/** A run into a block its block-start just opened: the common case, the one taken whole. */
const BLOCK_OF = {
  'text-delta': 'text',
  'reasoning-delta': 'reasoning',
  'tool-call-delta': 'tool-call',
} as const
const openedRun = fc
  .tuple(run, fc.option(fc.constantFrom('text', 'reasoning', 'tool-call', 'video'), { freq: 2 }))
  .map(([r, other]): Item[] => [
    // Mostly the block type of the row's deltas, as the harness writes it; now and then another.
    { chunk: bs(typeof r.index === 'number' ? r.index : 0, other ?? BLOCK_OF[r.deltaType]) },
    { run: r },
  ])

type Item = { readonly chunk: AnyChunk } | { readonly run: RunOfDeltas }
const items = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: knownChunk.map((chunk): Item[] => [{ chunk }]) },
      { weight: 1, arbitrary: oddChunk.map((chunk): Item[] => [{ chunk }]) },
      { weight: 2, arbitrary: run.map((r): Item[] => [{ run: r }]) },
      { weight: 3, arbitrary: openedRun },
    ),
    { maxLength: 12 },
  )
  .map((groups) => groups.flat())

/** The same items through two passes: runs whole in one, member by member in the other. */
function bothWays(list: readonly Item[]): {
  whole: AssemblyPass
  oneByOne: AssemblyPass
  chunkObjects: number
} {
  const whole = new AssemblyPass([])
  const oneByOne = new AssemblyPass([])
  let seq = 100
  let chunkObjects = 0
  for (const item of list) {
    if ('chunk' in item) {
      whole.pushChunk(item.chunk, seq)
      oneByOne.pushChunk(item.chunk, seq)
      seq += 1
      continue
    }
    const members = item.run
    whole.pushRun(members, seq, (k) => (chunkObjects++, memberChunk(members, k)))
    for (let k = 0; k < members.payload.length; k++) oneByOne.pushChunk(memberChunk(members, k), seq + k)
    seq += members.payload.length
  }
  return { whole, oneByOne, chunkObjects }
}

function expectSamePass(whole: AssemblyPass, oneByOne: AssemblyPass): void {
  expect(whole.pos).toBe(oneByOne.pos)
  expect(whole.assembler.exportState()).toEqual(oneByOne.assembler.exportState())
  expect(JSON.stringify(whole.result())).toBe(JSON.stringify(oneByOne.result()))
  expect(whole.result()).toEqual(oneByOne.result())
}

describe('AssemblyPass.pushRun: a packed row taken whole is its members pushed one by one', () => {
  it('the same state and findings after every item, and after the end-of-stream checks', () => {
    let members = 0
    let built = 0
    fc.assert(
      fc.property(items, (list) => {
        for (let n = 0; n <= list.length; n++) {
          const { whole, oneByOne } = bothWays(list.slice(0, n))
          expectSamePass(whole, oneByOne)
        }
        const { whole, oneByOne, chunkObjects } = bothWays(list)
        whole.end()
        oneByOne.end()
        expectSamePass(whole, oneByOne)
        members += list.reduce((n, item) => n + ('run' in item ? item.run.payload.length : 0), 0)
        built += chunkObjects
      }),
      { numRuns: 300 },
    )
    // Many runs were taken whole, not every one pushed member by member. Over 300 random lists the share built is
    // about 0.64–0.70 (runs into a block of another type, after a finish or a throw go member by member): 0.9
    // leaves room.
    expect(built).toBeLessThan(members * 0.9)
  })

  it('chunks after a run see the state its members left (an end, a straggler, a re-open)', () => {
    fc.assert(
      fc.property(openedRun, fc.array(fc.oneof(knownChunk, oddChunk), { maxLength: 8 }), (opened, after) => {
        const { whole, oneByOne } = bothWays([...opened, ...after.map((chunk) => ({ chunk }))])
        whole.end()
        oneByOne.end()
        expectSamePass(whole, oneByOne)
      }),
    )
  })

  it('BlockAssembler.appendRun from any member: the state of pushing each, or false and nothing done', () => {
    let taken = 0
    fc.assert(
      fc.property(
        fc.array(fc.oneof(knownChunk, oddChunk), { maxLength: 10 }),
        run,
        fc.nat(),
        (before, r, at) => {
          const whole = new BlockAssembler()
          const oneByOne = new BlockAssembler()
          for (const chunk of before) [whole, oneByOne].forEach((a) => a.push(chunk))
          const from = at % r.payload.length
          // When it declines, it leaves the state as it was (no member pushed on either side).
          const took = whole.appendRun(r, from)
          if (took) for (let k = from; k < r.payload.length; k++) oneByOne.push(memberChunk(r, k))
          taken += took ? 1 : 0
          expect(whole.exportState()).toEqual(oneByOne.exportState())
          expect(whole.push(td(0, 'next'))).toEqual(oneByOne.push(td(0, 'next')))
          expect(whole.exportState()).toEqual(oneByOne.exportState())
        },
      ),
      { numRuns: 500 },
    )
    // Not a property that holds by declining every run.
    expect(taken).toBeGreaterThan(50)
  })

  it('a row into the block its block-start opened builds no chunk object; one opening its block, one', () => {
    const texts = Array.from({ length: 400 }, (_, k) => `piece ${k} `)
    const members: RunOfDeltas = {
      deltaType: 'text-delta',
      index: 0,
      payload: texts,
      id: undefined,
      hasName: false,
      name: undefined,
    }
    const opened = bothWays([{ chunk: bs(0, 'text') }, { run: members }])
    expect(opened.chunkObjects).toBe(0)
    expectSamePass(opened.whole, opened.oneByOne)
    expect(opened.whole.result().blocks).toEqual([{ type: 'text', text: texts.join('') }])
    // Delta-only (§3 A2): the first member opens its block, with its finding; the other 399 are taken whole.
    const implicit = bothWays([{ run: members }])
    expect(implicit.chunkObjects).toBe(1)
    expectSamePass(implicit.whole, implicit.oneByOne)
    expect(implicit.whole.result().findings.map((f) => f.rule)).toEqual(['delta-without-start'])
  })

  it('a row the checker has something to say about goes member by member: one finding each', () => {
    // A reasoning-delta row into a text block: delta-type-mismatch at every member (§5).
    const members: RunOfDeltas = {
      deltaType: 'reasoning-delta',
      index: 0,
      payload: ['a', 'b', 'c'],
      id: undefined,
      hasName: false,
      name: undefined,
    }
    const { whole, oneByOne, chunkObjects } = bothWays([{ chunk: bs(0, 'text') }, { run: members }])
    expect(chunkObjects).toBe(3)
    expectSamePass(whole, oneByOne)
    expect(whole.result().findings.map((f) => [f.rule, f.seq])).toEqual([
      ['delta-type-mismatch', 101],
      ['delta-type-mismatch', 102],
      ['delta-type-mismatch', 103],
    ])
  })
})
