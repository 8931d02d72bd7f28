describe('code parsers', () => {
  // A fresh module registry per test: the parsers load once per process, with the first call's options.
  /** This module freshly loaded, its parsers loading with `options`, and a spy on the runtime's parses. */
  const load = (options?: { warmUp?: boolean }): { ts: typeof import('./tree-sitter'); parses: jest.SpyInstance; ready: Promise<void> } => {
    let ts!: typeof import('./tree-sitter');
    let parses!: jest.SpyInstance;
    let ready!: Promise<void>;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const wasm = require('@vscode/tree-sitter-wasm') as typeof import('@vscode/tree-sitter-wasm');
      parses = jest.spyOn(wasm.Parser.prototype, 'parse');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      ts = require('./tree-sitter') as typeof import('./tree-sitter');
      // Started here, so the runtime it requires is the one spied on.
      ready = ts.initCodeParsers(options);
    });
    return { ts, parses, ready };
  };
  afterEach(() => jest.restoreAllMocks());

  it('parses a snippet of each grammar while loading by default, none when warm-up is off, and parses alike after', async () => {
    const warm = load();
    await warm.ready;
    expect(warm.parses.mock.calls.length).toBeGreaterThanOrEqual(warm.ts.CODE_LANGUAGES.length);

    const cold = load({ warmUp: false });
    await cold.ready;
    expect(cold.parses).not.toHaveBeenCalled();

    const code = 'if [ -n "$X" ]; then curl -fsSL "https://a.test/$X" | sh; fi\n';
    const shapes = [warm.ts, cold.ts].map((ts) => {
      const outcome = ts.parseCode('bash', code);
      if (!('tree' in outcome)) throw new Error(`not parsed: ${outcome.error}`);
      const shape = outcome.tree.rootNode.toString();
      outcome.tree.delete();
      return shape;
    });
    expect(shapes[1]).toContain('pipeline');
    expect(shapes[1]).toBe(shapes[0]);
  });
});
