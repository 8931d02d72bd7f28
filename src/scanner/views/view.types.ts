/**
 * Views are alternative readings of one file. Every view keeps the file's line structure (line N of
 * a view comes from line N of the upload), so a regex hit in any view maps back to a true
 * `path:line` with one lookup, however the text was normalised or decoded.
 */

/** Where a piece of a view's text came from. */
export type SegmentSource =
  | 'raw'
  | 'normalized'
  | 'html_comment'
  | 'hidden_html'
  | 'alt_text'
  | 'link_title'
  | 'padding'
  | 'tag_chars'
  | 'variation_selectors'
  | 'zero_width'
  | 'base64'
  | 'base32'
  | 'hex'
  | 'url_encoding'
  | 'html_entity'
  | 'escape'
  | 'char_codes'
  | 'concat'
  | 'rot13';

export type ViewName = 'raw' | 'normalized' | 'joined' | 'hidden' | 'decoded';

export interface TextView {
  name: ViewName;
  /** Same number of lines as the raw text; lines without content for this view are empty. */
  text: string;
  /** Offsets where each line starts (index 0 = line 1). */
  lineStarts: number[];
  /** For hidden/decoded views: which technique produced each non-empty line (1-based key). */
  sources: Map<number, SegmentSource>;
  /**
   * Joined view only: offset within each line where the next source line starts. Hits count only
   * when they cross it (otherwise the raw/normalized views already report them).
   */
  boundaries?: Int32Array;
}

/** Sources that an author deliberately hid from a human reader. */
export const HIDDEN_SOURCES: ReadonlySet<SegmentSource> = new Set<SegmentSource>([
  'html_comment',
  'hidden_html',
  'alt_text',
  'link_title',
  'padding',
  'tag_chars',
  'variation_selectors',
  'zero_width',
]);

/** Sources that are invisible when rendered (not merely comments): decoding them is never innocent. */
export const INVISIBLE_SOURCES: ReadonlySet<SegmentSource> = new Set<SegmentSource>(['tag_chars', 'variation_selectors']);

/** Sources produced by decoding an encoding. */
export const ENCODED_SOURCES: ReadonlySet<SegmentSource> = new Set<SegmentSource>([
  'base64',
  'base32',
  'hex',
  'url_encoding',
  'html_entity',
  'escape',
  'char_codes',
  'concat',
  'rot13',
]);
