import type { ScanContext } from '../../views/scan-context';
import { defineRegexRule } from '../regex-rule';

/** Kinds of host privilege a file grants its containers: privileged, a host namespace, an added capability, a mount of the host. */
export const PRIVILEGE_KIND_REGEXES: readonly RegExp[] = [
  /--privileged\b/,
  /--(?:pid|net|network|ipc|uts|userns)[= ]host\b/,
  /--cap-add[= ]\w/i,
  /(?:-v|--volume|--mount)["',\s]{1,20}\/(?::|,)|docker\.sock/,
];
const KINDS_IN_FILE = new WeakMap<ScanContext, number>();
function privilegeKinds(ctx: ScanContext): number {
  let n = KINDS_IN_FILE.get(ctx);
  if (n === undefined) KINDS_IN_FILE.set(ctx, (n = PRIVILEGE_KIND_REGEXES.filter((re) => re.test(ctx.text)).length));
  return n;
}

export const privContainerHostRule = defineRegexRule({
  meta: {
    id: 'BW-PRIV-003',
    title: 'Container with host-level privileges',
    category: 'privilege_escalation',
    severity: 'high',
    confidence: 'high',
    asset_type: 'config',
    rationale:
      'The host root mounted as a volume or the Docker socket passed through gives the container (and whoever controls its image) root on the host (high), as do several of these together. A privileged container, a host namespace or an added capability alone weakens the isolation as fuzzing, profiling and GPU images often need: a risky practice (medium).',
    example: 'docker run --privileged -v /:/host -v /var/run/docker.sock:/var/run/docker.sock image',
  },
  triggers: ['--privileged', '--pid', '--net', '--network', '--ipc', '--uts', '--userns', '-v', '--volume', '--mount', '--cap-add', '--security-opt'],
  patterns: [
    /--privileged\b/,
    /--(?:pid|net|network|ipc|uts|userns)[= ]host\b/,
    /(?:-v|--volume|--mount)["',\s]{1,6}(?:type=bind,\s{0,2}source=)?\/(?::|,)/,
    /(?:-v|--volume)["',\s]{1,6}\/var\/run\/docker\.sock/,
    /--cap-add[= ](?:ALL|SYS_ADMIN|SYS_PTRACE|NET_ADMIN)\b/i,
    /--security-opt[= ](?:seccomp|apparmor)[=:]unconfined/,
  ],
  views: ['raw', 'normalized'],
  // The host root or the Docker socket hands the host over, and so do several kinds together; one
  // namespace, capability or the privileged flag (fuzzers, profilers, GPU training images) is a risky practice.
  refine: (hit, m, ctx) => (/^(?:-v|--volume|--mount)/.test(m[0]) || privilegeKinds(ctx) >= 2 ? hit : { ...hit, severity: 'medium' }),
});
