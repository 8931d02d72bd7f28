import { defineRegexRule } from '../regex-rule';

export const privContainerHostRule = defineRegexRule({
  meta: {
    id: 'BW-PRIV-003',
    title: 'Container with host-level privileges',
    category: 'privilege_escalation',
    severity: 'high',
    confidence: 'high',
    asset_type: 'config',
    rationale:
      'A privileged container, the host PID/network namespace, the host root mounted as a volume or the Docker socket passed through gives the container (and whoever controls its image) root on the host.',
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
});
