// The one place figures are rounded: for display (the text of `stats`, the HTML reports' cells, the
// summary's KPIs), each kind of figure with one number of decimals, rounded half up on the figure's decimal
// value (0.7695 is 0.770 everywhere, as Excel shows it, never 0.77 here and 0.769 there); and for JSON, full
// precision without binary noise (20.7, not 20.69999999999999: 12 significant digits).
// The house rule of text output: every count has thousands separators (1,234), in tables and sentences alike.
// Invariant: integers, and anything not a finite number, pass through cleaning unchanged.

/** Significant digits JSON keeps: more than any figure means, fewer than a double's noise (15-17). */
const JSON_DIGITS = 12;

/** `x` without binary noise: 12 significant digits (integers unchanged). */
export function withoutNoise(x: number): number {
  return Number.isFinite(x) && !Number.isInteger(x) ? Number(x.toPrecision(JSON_DIGITS)) : x;
}

/** JSON.stringify (indented by 2) with every non-integer number without binary noise. */
export function toCleanJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' ? withoutNoise(v) : v), 2);
}

/** `x` rounded half up to `digits` decimals, on its decimal value (12 significant digits). */
export function roundHalfUp(x: number, digits: number): number {
  const scale = 10 ** digits;
  const scaled = withoutNoise(x * scale);
  return (Math.sign(scaled) * Math.round(Math.abs(scaled))) / scale;
}

const grouped = new Map<number, Intl.NumberFormat>();

/** `x` with exactly `digits` decimals and thousands separators (10.0, 10.6, 1,234.5; 0.770). */
export function formatDecimal(x: number | null, digits: number): string {
  if (x === null || !Number.isFinite(x)) return '-';
  let format = grouped.get(digits);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    grouped.set(digits, format);
  }
  return format.format(roundHalfUp(x, digits));
}

/** A count: 1,234 (a fraction rounded half up). */
export function formatCount(n: number | null): string {
  return formatDecimal(n, 0);
}

/** A share 0..1 as a percentage with one decimal: 12.3%. */
export function formatShare(x: number | null): string {
  return x === null || !Number.isFinite(x) ? '-' : `${formatDecimal(x * 100, 1)}%`;
}

/**
 * Decimals of each kind of figure, as the reports' cell formats have them (`number` 2, `decimal3` 3):
 * messages per session (mean and percentiles alike: 10.00 and 10.60, never 10 beside 10.6) and options per
 * answer 2, confidences and MRR 3.
 */
export const FIGURE_DIGITS = { perSession: 2, options: 2, confidence: 3 } as const;

/** The decimals of the reports' decimal cell formats. */
export const FORMAT_DIGITS = { number: 2, decimal3: 3 } as const;
