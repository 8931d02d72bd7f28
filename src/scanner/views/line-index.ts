/** Offsets of line starts, and offset → 1-based line by binary search. */
export function computeLineStarts(text: string): number[] {
  const starts = [0];
  let idx = text.indexOf('\n');
  while (idx !== -1) {
    starts.push(idx + 1);
    idx = text.indexOf('\n', idx + 1);
  }
  return starts;
}

export function lineOfOffset(lineStarts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
