import { ClearingMap } from './clearing-map';

describe('ClearingMap', () => {
  it('holds up to its bound, then empties itself before adding a new key', () => {
    const map = new ClearingMap<string, number>(3);
    for (const [i, k] of ['a', 'b', 'c'].entries()) map.set(k, i);
    expect([...map.keys()]).toEqual(['a', 'b', 'c']);
    // Replacing a key it holds is not growth: nothing is dropped.
    map.set('b', 9);
    expect([...map.entries()]).toEqual([
      ['a', 0],
      ['b', 9],
      ['c', 2],
    ]);
    map.set('d', 3);
    expect([...map.entries()]).toEqual([['d', 3]]);
  });
});
