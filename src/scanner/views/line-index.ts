/** Offsets of line starts, and offset → 1-based line by binary search. */
export function computeLineStarts(text: string): number[] {
  const starts = [0];
  // One pass over the characters: an indexOf call per line costs more than the line when lines are short.
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
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

/** The first position in an ascending list holding a value of at least `min` (its length when none does). */
export function firstAtLeast(list: readonly number[], min: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < min) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
