import type { Coverage } from './coverage.ts';

/** The coverage as a compact table for the pretty report. */
export function coverageLines(coverage: Coverage): string[] {
  const skipped = coverage.notCounted.map((n) => n.status).join(', ');
  const lines = [
    `coverage: ${coverage.percent}% of the operation x documented status pairs (${coverage.exercised} of ${coverage.counted})${skipped ? `; not counted: ${skipped}, which no request brings (see --reporter json); of all ${coverage.documented} pairs: ${coverage.percentOfAll}%` : ''}`,
  ];
  const idWidth = Math.max(...coverage.operations.map((o) => o.operationId.length));
  const pathWidth = Math.max(...coverage.operations.map((o) => o.path.length));
  for (const op of coverage.operations) {
    const entries = Object.entries(op.statuses);
    const seen = entries.filter(([, n]) => n > 0).map(([s, n]) => `${s}x${n}`);
    const counted = new Set(coverage.notCounted.map((n) => n.status));
    const missing = entries.filter(([s, n]) => n === 0 && !counted.has(s)).map(([s]) => s);
    const total = op.parameters.length + op.unsentParameters.length;
    const time =
      op.latency === undefined ? '' : `; p50 ${op.latency.p50Ms} ms, p95 ${op.latency.p95Ms} ms`;
    lines.push(
      `  ${op.operationId.padEnd(idWidth)}  ${op.method.padEnd(4)} ${op.path.padEnd(pathWidth)}  ${seen.join(' ') || 'not exercised'}${missing.length > 0 ? `; not seen ${missing.join(' ')}` : ''}; parameters ${op.parameters.length}/${total}${time}`,
    );
  }
  for (const [where, statuses] of Object.entries(coverage.outside))
    lines.push(
      `  (no operation)  ${where}  ${Object.entries(statuses)
        .map(([s, n]) => `${s}x${n}`)
        .join(' ')}`,
    );
  if (coverage.min !== undefined)
    lines.push(
      coverage.met
        ? `  pass  coverage ${coverage.percent}% meets --min-coverage ${coverage.min}`
        : `  FAIL  coverage ${coverage.percent}% is under --min-coverage ${coverage.min}${shortBy(coverage)}`,
    );
  return lines;
}

/** What a failed coverage gate adds when the run sent fewer requests than asked. */
export function shortBy(coverage: Coverage): string {
  return coverage.cutShort === undefined ? '' : `; ${coverage.cutShort}`;
}

/** The coverage as JUnit properties: the percent, then one per operation. */
export function coverageProperties(coverage: Coverage): [string, string][] {
  const properties: [string, string][] = [
    ['coverage.percent', String(coverage.percent)],
    ['coverage.pairs', `${coverage.exercised} of ${coverage.counted}`],
    ['coverage.percentOfAll', String(coverage.percentOfAll)],
    ['coverage.allPairs', `${coverage.exercisedOfAll} of ${coverage.documented}`],
    ['coverage.notCounted', coverage.notCounted.map((n) => n.status).join(' ')],
  ];
  if (coverage.min !== undefined) properties.push(['coverage.min', String(coverage.min)]);
  for (const op of coverage.operations) {
    const statuses = Object.entries(op.statuses)
      .map(([s, n]) => `${s}=${n}`)
      .join(' ');
    properties.push([
      `coverage.${op.operationId}`,
      `${op.method} ${op.path} statuses ${statuses}; parameters ${op.parameters.join(',') || '-'}; unsent ${op.unsentParameters.join(',') || '-'}`,
    ]);
    if (op.latency !== undefined)
      properties.push(
        [`latency.${op.operationId}.p50`, `${op.latency.p50Ms} ms`],
        [`latency.${op.operationId}.p95`, `${op.latency.p95Ms} ms`],
      );
  }
  return properties;
}
