// The `chunkscope` command: the same formats and core as the web app, printing text or the --json contract.
import process from 'node:process'
import { runBytes } from './run'
import { terminalOutput } from './terminalText'

// A reader that stops early (`chunkscope inspect FILE | head`) closes the pipe: that is the reader's choice, not a
// failure, so the command ends quietly with what was written instead of an unhandled EPIPE and a stack trace.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
    process.exit(process.exitCode ?? 0)
  })

try {
  process.exitCode = await runBytes(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  })
} catch (error) {
  // A bug of ours, not bad input: still one line, never a stack trace.
  process.stderr.write(
    terminalOutput(`chunkscope: internal error: ${error instanceof Error ? error.message : String(error)}\n`),
  )
  process.exitCode = 2
}
