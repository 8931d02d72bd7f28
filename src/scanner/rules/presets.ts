/** Presets are plain arrays of rules; DEFAULT_PRESET is what the scan endpoint runs. */
import { ceDecodeExecRule } from './catalogue/ce-decode-exec.rule';
import { ceDynamicExecRule } from './catalogue/ce-dynamic-exec.rule';
import { ceSkillDynamicContextRule } from './catalogue/ce-skill-dynamic-context.rule';
import { cfgAgentConfigWriteRule } from './catalogue/cfg-agent-config-write.rule';
import { cfgMcpAutoApprovalRule } from './catalogue/cfg-mcp-auto-approval.rule';
import { cfgModelBaseUrlOverrideRule } from './catalogue/cfg-model-base-url-override.rule';
import { cfgProjectHookCommandRule } from './catalogue/cfg-project-hook-command.rule';
import { cmbCoveredExecutionRule, cmbCredentialLeakRule, cmbDestructiveUncheckedRule, cmbExfilConcealedRule } from './catalogue/cmb-compound.rule';
import { daDestructiveDataRule } from './catalogue/da-destructive-data.rule';
import { daDestructiveRootRule } from './catalogue/da-destructive-root.rule';
import { dcConcealActionRule } from './catalogue/dc-conceal-action.rule';
import { decAddressReviewerRule } from './catalogue/dec-address-reviewer.rule';
import { decFalseSafetyClaimRule } from './catalogue/dec-false-safety-claim.rule';
import { decLieToUserRule } from './catalogue/dec-lie-to-user.rule';
import { decSkipConfirmationRule } from './catalogue/dec-skip-confirmation.rule';
import { desAutonomousIrreversibleRule } from './catalogue/des-autonomous-irreversible.rule';
import { exCredentialToNetworkRule } from './catalogue/ex-credential-to-network.rule';
import { exMarkdownImageBeaconRule } from './catalogue/ex-markdown-image-beacon.rule';
import { exfExfilInstructionRule } from './catalogue/exf-exfil-instruction.rule';
import { exfExternalPostRule } from './catalogue/exf-external-post.rule';
import { exfUploadExternalRule } from './catalogue/exf-upload-external.rule';
import { frmAuthorityBypassRule } from './catalogue/frm-authority-bypass.rule';
import { frmConcealedIrreversibleRule } from './catalogue/frm-concealed-irreversible.rule';
import { frmCovertCollectionRule } from './catalogue/frm-covert-collection.rule';
import { frmCredentialSolicitationRule } from './catalogue/frm-credential-solicitation.rule';
import { frmDisableSafeguardRule } from './catalogue/frm-disable-safeguard.rule';
import { frmAccessGrantRule } from './catalogue/frm-access-grant.rule';
import { frmRecurringRecoveryDestructionRule } from './catalogue/frm-recurring-recovery-destruction.rule';
import { frmDisclosedCommercialRule } from './catalogue/frm-disclosed-commercial.rule';
import { frmEchoSecretsRule } from './catalogue/frm-echo-secrets.rule';
import { frmHiddenAdvertisingRule } from './catalogue/frm-hidden-advertising.rule';
import { frmMisreportToUserRule } from './catalogue/frm-misreport-to-user.rule';
import { frmObeyFetchedContentRule } from './catalogue/frm-obey-fetched-content.rule';
import { frmOutboundNoOptOutRule } from './catalogue/frm-outbound-no-opt-out.rule';
import { frmOverrideInstructionsRule } from './catalogue/frm-override-instructions.rule';
import { frmPersonaJailbreakRule } from './catalogue/frm-persona-jailbreak.rule';
import { frmSecretPublishedRule } from './catalogue/frm-secret-published.rule';
import { frmSensitiveToExternalRule } from './catalogue/frm-sensitive-to-external.rule';
import { frmUnconsentedIrreversibleRule } from './catalogue/frm-unconsented-irreversible.rule';
import { frmUnconsentedRemoteUpdateRule } from './catalogue/frm-unconsented-remote-update.rule';
import { mcpAnnotationContradictionRule } from './catalogue/mcp-annotation-contradiction.rule';
import { mcpInlineSecretRule, mcpServerRiskRule } from './catalogue/mcp-server-risk.rule';
import { mcpToolInputToPathRule } from './catalogue/mcp-tool-input-to-path.rule';
import { mcpToolInputToShellRule } from './catalogue/mcp-tool-input-to-shell.rule';
import { mcpToolNameCollisionRule } from './catalogue/mcp-tool-name-collision.rule';
import { mcpToolPreferenceRule } from './catalogue/mcp-tool-preference.rule';
import { mcpToolShadowingRule } from './catalogue/mcp-tool-shadowing.rule';
import { obEncodedPayloadRule } from './catalogue/ob-encoded-payload.rule';
import { obHomoglyphRule } from './catalogue/ob-homoglyph.rule';
import { obInvisibleUnicodeRule } from './catalogue/ob-invisible-unicode.rule';
import { othUnsafeCodeRule } from './catalogue/oth-unsafe-code.rule';
import { othWeakSafeguardsRule } from './catalogue/oth-weak-safeguards.rule';
import { peSudoEscalationRule } from './catalogue/pe-sudo-escalation.rule';
import { piActivationHijackRule } from './catalogue/pi-activation-hijack.rule';
import { piAuthorityClaimRule } from './catalogue/pi-authority-claim.rule';
import { piFakeSystemBlockRule } from './catalogue/pi-fake-system-block.rule';
import { piHiddenInstructionRule } from './catalogue/pi-hidden-instruction.rule';
import { piInstructionOverrideRule } from './catalogue/pi-instruction-override.rule';
import { privContainerHostRule } from './catalogue/priv-container-host.rule';
import { privDisableSecurityRule } from './catalogue/priv-disable-security.rule';
import { privPermissionBypassRule } from './catalogue/priv-permission-bypass.rule';
import { privPersistenceRule } from './catalogue/priv-persistence.rule';
import { rceCodeInDataRule } from './catalogue/rce-code-in-data.rule';
import { rceDownloadExecRule } from './catalogue/rce-download-exec.rule';
import { rceFetchExecFlowRule } from './catalogue/rce-fetch-exec-flow.rule';
import { rcePipeToShellRule } from './catalogue/rce-pipe-to-shell.rule';
import { rceReverseShellRule } from './catalogue/rce-reverse-shell.rule';
import { seProviderSecretRule } from './catalogue/se-provider-secret.rule';
import { secHardcodedCredentialRule } from './catalogue/sec-hardcoded-credential.rule';
import { secRevealSecretsRule } from './catalogue/sec-reveal-secrets.rule';
import { supClickfixCommandRule } from './catalogue/sup-clickfix-command.rule';
import { supLookalikeScopeRule } from './catalogue/sup-lookalike-scope.rule';
import { supPasswordArchiveRule } from './catalogue/sup-password-archive.rule';
import { supPasteSitePrerequisiteRule } from './catalogue/sup-paste-site-prerequisite.rule';
import { tpToolPoisoningRule } from './catalogue/tp-tool-poisoning.rule';
import { urlPackageSourceRule } from './catalogue/url-package-source.rule';
import { urlRemoteInstructionsRule } from './catalogue/url-remote-instructions.rule';
import { urlRiskyDestinationRule } from './catalogue/url-risky-destination.rule';
import { urlUnpinnedDownloadRule } from './catalogue/url-unpinned-download.rule';
import type { Rule } from './rule.types';

export const ALL_RULES: readonly Rule[] = [
  piActivationHijackRule,
  piAuthorityClaimRule,
  piFakeSystemBlockRule,
  piHiddenInstructionRule,
  piInstructionOverrideRule,
  tpToolPoisoningRule,
  exfExfilInstructionRule,
  exfExternalPostRule,
  exfUploadExternalRule,
  exCredentialToNetworkRule,
  exMarkdownImageBeaconRule,
  secHardcodedCredentialRule,
  secRevealSecretsRule,
  seProviderSecretRule,
  rceCodeInDataRule,
  rceDownloadExecRule,
  rceFetchExecFlowRule,
  rcePipeToShellRule,
  rceReverseShellRule,
  ceDecodeExecRule,
  ceDynamicExecRule,
  ceSkillDynamicContextRule,
  daDestructiveDataRule,
  daDestructiveRootRule,
  desAutonomousIrreversibleRule,
  privContainerHostRule,
  privDisableSecurityRule,
  privPermissionBypassRule,
  privPersistenceRule,
  peSudoEscalationRule,
  obEncodedPayloadRule,
  obHomoglyphRule,
  obInvisibleUnicodeRule,
  decAddressReviewerRule,
  decFalseSafetyClaimRule,
  decLieToUserRule,
  decSkipConfirmationRule,
  dcConcealActionRule,
  frmSensitiveToExternalRule,
  frmCovertCollectionRule,
  frmUnconsentedIrreversibleRule,
  frmAuthorityBypassRule,
  frmDisableSafeguardRule,
  frmMisreportToUserRule,
  frmHiddenAdvertisingRule,
  frmObeyFetchedContentRule,
  frmEchoSecretsRule,
  frmPersonaJailbreakRule,
  frmCredentialSolicitationRule,
  frmUnconsentedRemoteUpdateRule,
  frmConcealedIrreversibleRule,
  frmOverrideInstructionsRule,
  frmSecretPublishedRule,
  frmDisclosedCommercialRule,
  frmOutboundNoOptOutRule,
  frmAccessGrantRule,
  frmRecurringRecoveryDestructionRule,
  urlPackageSourceRule,
  urlRemoteInstructionsRule,
  urlRiskyDestinationRule,
  urlUnpinnedDownloadRule,
  mcpInlineSecretRule,
  mcpServerRiskRule,
  mcpAnnotationContradictionRule,
  mcpToolShadowingRule,
  mcpToolNameCollisionRule,
  mcpToolPreferenceRule,
  mcpToolInputToShellRule,
  mcpToolInputToPathRule,
  cfgMcpAutoApprovalRule,
  cfgModelBaseUrlOverrideRule,
  cfgAgentConfigWriteRule,
  cfgProjectHookCommandRule,
  supPasswordArchiveRule,
  supPasteSitePrerequisiteRule,
  supClickfixCommandRule,
  supLookalikeScopeRule,
  othUnsafeCodeRule,
  othWeakSafeguardsRule,
  cmbCoveredExecutionRule,
  cmbCredentialLeakRule,
  cmbDestructiveUncheckedRule,
  cmbExfilConcealedRule,
];

export const DEFAULT_PRESET: readonly Rule[] = ALL_RULES;
