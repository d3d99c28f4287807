// Small statistics helpers: every figure is reported as {value, floor, ratio} measured in one run.
export interface Summary {
  n: number;
  min: number;
  p10: number;
  median: number;
  p99: number;
  mean: number;
}

export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    n: sorted.length,
    min: sorted[0],
    p10: at(0.1),
    median: at(0.5),
    p99: at(0.99),
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
  };
}

/** The spread of one side's samples, rounded: what a reader needs to see which state a run was in. */
export function spread(s: Summary): { min: number; p10: number; median: number; p99: number } {
  return { min: round(s.min), p10: round(s.p10), median: round(s.median), p99: round(s.p99) };
}

export interface Figure {
  unit: string;
  value: number;
  floor: number;
  /** value / floor; for "higher is better" figures (throughput) the floor is divided by the value. */
  ratio: number;
  goal?: string;
  met?: boolean;
  notes?: string;
}

export function round(n: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** A figure where lower is better (latency, time, bytes). */
export function lowerIsBetter(unit: string, value: number, floor: number, goalRatio?: number): Figure {
  const ratio = value / floor;
  const fig: Figure = { unit, value: round(value), floor: round(floor), ratio: round(ratio) };
  if (goalRatio !== undefined) {
    fig.goal = `ratio <= ${goalRatio}`;
    fig.met = ratio <= goalRatio;
  }
  return fig;
}

/** A figure where higher is better (throughput): ratio = floor / value, so 1.0 is the floor and more is worse. */
export function higherIsBetter(unit: string, value: number, floor: number, goalRatio?: number): Figure {
  const ratio = floor / value;
  const fig: Figure = { unit, value: round(value), floor: round(floor), ratio: round(ratio) };
  if (goalRatio !== undefined) {
    fig.goal = `ratio <= ${goalRatio}`;
    fig.met = ratio <= goalRatio;
  }
  return fig;
}

export function hrtimeMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}
