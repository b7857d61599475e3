// The UI benches' page hook, compiled only into their own build (`vite build --mode bench`, see main.tsx): opens
// a generated stream of any length in the page, past the browser limits a user's file meets (workers/budget.ts),
// so the views can be measured at 10,000,000 chunks. The chunks are built here, not read: no input file of that
// size can reach the page (README.md, "Budgets").
import type { ChunkscopeStore } from '../app/store'
import { buildStreamSession } from '../core/session'
import { generateStream } from '../test/generate'

export type BenchHook = {
  /** Opens `n` generated chunks (blocks of `perBlock` deltas) as a chunk file would open; resolves once shown. */
  openGenerated(n: number, perBlock: number): Promise<void>
}

export function installBenchHook(store: ChunkscopeStore): void {
  const hook: BenchHook = {
    async openGenerated(n, perBlock) {
      const { actions } = store.getState()
      actions.startLoading()
      const session = buildStreamSession(generateStream(n, perBlock))
      await actions.showSource(
        { format: 'chunk-ndjson', diagnostics: [], sessions: [session] },
        { kind: 'file', name: `generated-${n}.ndjson` },
      )
    },
  }
  ;(window as unknown as { __chunkscopeBench: BenchHook }).__chunkscopeBench = hook
}
