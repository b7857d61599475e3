import { seedExampleChunks } from '../examples/seedExample'
import { buildFinalMessage } from './message/buildFinalMessage'
import { FinalMessage } from './message/FinalMessage'

// The built-in example is static, so it is assembled once at load; loading real sources comes with the store.
const seedMessage = buildFinalMessage(seedExampleChunks)

export function App() {
  // `data-state` is the app's idle signal for e2e: "idle" when nothing is loading.
  return (
    <div
      data-state="idle"
      className="min-h-screen bg-white text-slate-900 dark:bg-slate-900 dark:text-slate-100"
    >
      <header className="border-b border-slate-200 px-4 py-2 dark:border-slate-700">
        <h1 className="text-lg font-semibold">Chunkscope</h1>
      </header>
      <main className="mx-auto max-w-3xl space-y-3 p-4">
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Example: a text block and a <code className="font-mono">bash</code> tool call,{' '}
          {seedExampleChunks.length} chunks.
        </p>
        <FinalMessage message={seedMessage} />
      </main>
    </div>
  )
}
