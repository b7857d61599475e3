// Placeholder entry for the `chunkscope` command; the real commands arrive with the CLI work.
import process from 'node:process'

const USAGE = `chunkscope — replay LLM StreamChunk streams through a BlockAssembler

Usage: chunkscope [--help]

No commands are implemented yet.
`

function main(argv: readonly string[]): number {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE)
    return 0
  }
  process.stderr.write(`chunkscope: unknown arguments: ${argv.join(' ')}\n\n${USAGE}`)
  return 2
}

process.exitCode = main(process.argv.slice(2))
