export type Counts = { passed: number; failed: number }
export function countVitest(report: unknown): Counts
export function countPlaywright(report: unknown): Counts
export function countReport(
  path: string,
  count: (report: unknown) => Counts,
  warn: (message: string) => void,
): Counts
