import process from 'node:process'

/** Resolves on the first SIGINT (Ctrl-C) or SIGTERM: how the long-running commands (proxy, attach) stop. */
export function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done)
      process.off('SIGTERM', done)
      resolve()
    }
    process.on('SIGINT', done)
    process.on('SIGTERM', done)
  })
}
