// The scanner's code layer parses with WebAssembly grammars that load asynchronously
// (src/scanner/code/tree-sitter.ts). Asynchronous entry points await them; specs that call the
// synchronous analyzer directly get them ready here first.
import { initCodeParsers } from '../src/scanner/code/tree-sitter';

beforeAll(async () => {
  await initCodeParsers();
});
