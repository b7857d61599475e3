#!/usr/bin/env node
// `npm run bench`: builds src/bench/*.bench.ts for Node and runs each in its own process (with --expose-gc for
// memory figures). Prints numbers beside bench/baseline.json; nothing here passes or fails on timing.
import { execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'

execFileSync('npx', ['vite', 'build', '--config', 'vite.bench.config.ts', '--logLevel', 'warn'], {
  stdio: 'inherit',
})
const only = process.argv.slice(2)
// inspect.bench runs the built CLI, as a user would: build it from this checkout first.
if (only.length === 0 || only.some((word) => 'inspect.bench.mjs'.includes(word))) {
  execFileSync('npx', ['vite', 'build', '--config', 'vite.cli.config.ts', '--logLevel', 'warn'], {
    stdio: 'inherit',
  })
}
const benches = readdirSync('dist-bench')
  .filter((name) => name.endsWith('.bench.mjs'))
  .filter((name) => only.length === 0 || only.some((word) => name.includes(word)))
  .sort()
let failed = 0
for (const bench of benches) {
  try {
    execFileSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', `dist-bench/${bench}`], {
      stdio: 'inherit',
    })
  } catch {
    failed += 1
    console.error(`bench ${bench} did not finish`)
  }
}
console.log(
  '\nResults merged into bench-results/latest.json (copy to bench/baseline.json to make them the baseline).',
)
process.exit(failed ? 1 : 0)
