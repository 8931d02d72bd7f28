/** Presets are plain arrays of rules; DEFAULT_PRESET is what the scan endpoint runs. */
import { ceDecodeExecRule } from './catalogue/ce-001-decode-exec.rule';
import { ceDynamicExecRule } from './catalogue/ce-002-dynamic-exec.rule';
import { ceSkillDynamicContextRule } from './catalogue/ce-003-skill-dynamic-context.rule';
import { cfgAgentConfigWriteRule } from './catalogue/cfg-003-agent-config-write.rule';
import { cfgMcpAutoApprovalRule } from './catalogue/cfg-001-mcp-auto-approval.rule';
import { cfgModelBaseUrlOverrideRule } from './catalogue/cfg-002-model-base-url-override.rule';
import { cfgProjectHookCommandRule } from './catalogue/cfg-004-project-hook-command.rule';
import { cmbDestructiveUncheckedRule } from './catalogue/cmb-001-destructive-unchecked.rule';
import { cmbExfilConcealedRule } from './catalogue/cmb-002-exfil-concealed.rule';
import { cmbCoveredExecutionRule } from './catalogue/cmb-003-covered-execution.rule';
import { cmbCredentialLeakRule } from './catalogue/cmb-004-credential-leak.rule';
import { cmbShadowingToolSendsRule } from './catalogue/cmb-005-shadowing-tool-sends.rule';
import { daDestructiveDataRule } from './catalogue/des-002-destructive-data.rule';
import { daDestructiveRootRule } from './catalogue/des-001-destructive-root.rule';
import { dcConcealActionRule } from './catalogue/dec-001-conceal-action.rule';
import { decAddressReviewerRule } from './catalogue/dec-004-address-reviewer.rule';
import { decFalseSafetyClaimRule } from './catalogue/dec-005-false-safety-claim.rule';
import { decLieToUserRule } from './catalogue/dec-003-lie-to-user.rule';
import { decSkipConfirmationRule } from './catalogue/dec-002-skip-confirmation.rule';
import { desAutonomousIrreversibleRule } from './catalogue/des-003-autonomous-irreversible.rule';
import { desLogicBombRule } from './catalogue/des-004-logic-bomb.rule';
import { desBroadDestructionCodeRule } from './catalogue/des-005-broad-destruction-code.rule';
import { exCredentialToNetworkRule } from './catalogue/exf-001-credential-to-network.rule';
import { exMarkdownImageBeaconRule } from './catalogue/exf-002-markdown-image-beacon.rule';
import { exfExfilInstructionRule } from './catalogue/exf-004-exfil-instruction.rule';
import { exfExternalPostRule } from './catalogue/exf-005-external-post.rule';
import { exfVendorCredentialForeignHostRule } from './catalogue/exf-006-vendor-credential-foreign-host.rule';
import { exfCredentialCovertChannelRule } from './catalogue/exf-008-credential-covert-channel.rule';
import { exfCredentialFilesGatheredRule } from './catalogue/exf-007-credential-files-gathered.rule';
import { exfUploadExternalRule } from './catalogue/exf-003-upload-external.rule';
import { frmAccessGrantRule } from './catalogue/frm-019-access-grant.rule';
import { frmDisclosedCommercialRule } from './catalogue/frm-017-disclosed-commercial.rule';
import { frmOutboundNoOptOutRule } from './catalogue/frm-018-outbound-no-opt-out.rule';
import { frmOverrideInstructionsRule } from './catalogue/frm-015-override-instructions.rule';
import { frmRecurringRecoveryDestructionRule } from './catalogue/frm-020-recurring-recovery-destruction.rule';
import { frmWalletSecretsGatheredRule } from './catalogue/frm-021-wallet-secrets-gathered.rule';
import { frmSecretPublishedRule } from './catalogue/frm-016-secret-published.rule';
import { frmAuthorityBypassRule } from './catalogue/frm-004-authority-bypass.rule';
import { frmConcealedIrreversibleRule } from './catalogue/frm-014-concealed-irreversible.rule';
import { frmCovertCollectionRule } from './catalogue/frm-002-covert-collection.rule';
import { frmCredentialSolicitationRule } from './catalogue/frm-011-credential-solicitation.rule';
import { frmDisableSafeguardRule } from './catalogue/frm-005-disable-safeguard.rule';
import { frmEchoSecretsRule } from './catalogue/frm-009-echo-secrets.rule';
import { frmHiddenAdvertisingRule } from './catalogue/frm-007-hidden-advertising.rule';
import { frmMisreportToUserRule } from './catalogue/frm-006-misreport-to-user.rule';
import { frmObeyFetchedContentRule } from './catalogue/frm-008-obey-fetched-content.rule';
import { frmPersonaJailbreakRule } from './catalogue/frm-010-persona-jailbreak.rule';
import { frmSensitiveToExternalRule } from './catalogue/frm-001-sensitive-to-external.rule';
import { frmUnconsentedIrreversibleRule } from './catalogue/frm-003-unconsented-irreversible.rule';
import { frmUnconsentedRemoteUpdateRule } from './catalogue/frm-012-unconsented-remote-update.rule';
import { mcpAnnotationContradictionRule } from './catalogue/mcp-101-annotation-contradiction.rule';
import { mcpServerRiskRule } from './catalogue/mcp-001-server-risk.rule';
import { mcpInlineSecretRule } from './catalogue/mcp-002-inline-secret.rule';
import { mcpToolInputToPathRule } from './catalogue/mcp-106-tool-input-to-path.rule';
import { mcpToolInputToShellRule } from './catalogue/mcp-105-tool-input-to-shell.rule';
import { mcpToolNameCollisionRule } from './catalogue/mcp-103-tool-name-collision.rule';
import { mcpToolPreferenceRule } from './catalogue/mcp-104-tool-preference.rule';
import { mcpToolShadowingRule } from './catalogue/mcp-102-tool-shadowing.rule';
import { obEncodedPayloadRule } from './catalogue/obf-002-encoded-payload.rule';
import { obHomoglyphRule } from './catalogue/obf-003-homoglyph.rule';
import { obfDecodedAtRunTimeRule } from './catalogue/obf-004-decoded-at-run-time.rule';
import { obfNameBuiltAtRunTimeRule } from './catalogue/obf-005-name-built-at-run-time.rule';
import { obInvisibleUnicodeRule } from './catalogue/obf-001-invisible-unicode.rule';
import { othUnsafeCodeRule } from './catalogue/oth-002-unsafe-code.rule';
import { othWeakSafeguardsRule } from './catalogue/oth-001-weak-safeguards.rule';
import { peSudoEscalationRule } from './catalogue/priv-001-sudo-escalation.rule';
import { piActivationHijackRule } from './catalogue/pi-005-activation-hijack.rule';
import { piAuthorityClaimRule } from './catalogue/pi-004-authority-claim.rule';
import { piFakeSystemBlockRule } from './catalogue/pi-003-fake-system-block.rule';
import { piHiddenInstructionRule } from './catalogue/pi-002-hidden-instruction.rule';
import { piInstructionOverrideRule } from './catalogue/pi-001-instruction-override.rule';
import { privContainerHostRule } from './catalogue/priv-003-container-host.rule';
import { privDisableSecurityRule } from './catalogue/priv-005-disable-security.rule';
import { privPermissionBypassRule } from './catalogue/priv-002-permission-bypass.rule';
import { privPersistenceRule } from './catalogue/priv-004-persistence.rule';
import { privOsTamperRule } from './catalogue/priv-006-os-tamper.rule';
import { privPersistenceCodeRule } from './catalogue/priv-007-persistence-code.rule';
import { rceCodeInDataRule } from './catalogue/rce-005-code-in-data.rule';
import { rceDownloadExecRule } from './catalogue/rce-002-download-exec.rule';
import { rceDownloadThenRunRule } from './catalogue/rce-006-download-then-run.rule';
import { rceFetchExecFlowRule } from './catalogue/rce-004-fetch-exec-flow.rule';
import { rcePipeToShellRule } from './catalogue/rce-001-pipe-to-shell.rule';
import { rceReverseShellRule } from './catalogue/rce-003-reverse-shell.rule';
import { seProviderSecretRule } from './catalogue/sec-001-provider-secret.rule';
import { secHardcodedCredentialRule } from './catalogue/sec-003-hardcoded-credential.rule';
import { secRevealSecretsRule } from './catalogue/sec-002-reveal-secrets.rule';
import { secLoginPasswordCheckRule } from './catalogue/sec-004-login-password-check.rule';
import { supClickfixCommandRule } from './catalogue/sup-003-clickfix-command.rule';
import { supLookalikeScopeRule } from './catalogue/sup-004-lookalike-scope.rule';
import { supFakePrerequisiteRule } from './catalogue/sup-005-fake-prerequisite.rule';
import { supPasswordArchiveRule } from './catalogue/sup-001-password-archive.rule';
import { supPasteSitePrerequisiteRule } from './catalogue/sup-002-paste-site-prerequisite.rule';
import { tpToolPoisoningRule } from './catalogue/tp-001-tool-poisoning.rule';
import { tpSchemaValueDirectiveRule } from './catalogue/tp-002-schema-value-directive.rule';
import { urlPackageSourceRule } from './catalogue/url-003-package-source.rule';
import { urlRemoteInstructionsRule } from './catalogue/url-002-remote-instructions.rule';
import { urlRiskyDestinationRule } from './catalogue/url-001-risky-destination.rule';
import { urlUnpinnedDownloadRule } from './catalogue/url-004-unpinned-download.rule';
import type { Rule } from './rule.types';

export const ALL_RULES: readonly Rule[] = [
  piActivationHijackRule,
  piAuthorityClaimRule,
  piFakeSystemBlockRule,
  piHiddenInstructionRule,
  piInstructionOverrideRule,
  tpToolPoisoningRule,
  tpSchemaValueDirectiveRule,
  exfExfilInstructionRule,
  exfExternalPostRule,
  exfVendorCredentialForeignHostRule,
  exfCredentialFilesGatheredRule,
  exfCredentialCovertChannelRule,
  exfUploadExternalRule,
  exCredentialToNetworkRule,
  exMarkdownImageBeaconRule,
  secHardcodedCredentialRule,
  secRevealSecretsRule,
  secLoginPasswordCheckRule,
  seProviderSecretRule,
  rceCodeInDataRule,
  rceDownloadExecRule,
  rceDownloadThenRunRule,
  desLogicBombRule,
  desBroadDestructionCodeRule,
  privOsTamperRule,
  privPersistenceCodeRule,
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
  obfDecodedAtRunTimeRule,
  obfNameBuiltAtRunTimeRule,
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
  frmWalletSecretsGatheredRule,
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
  cmbShadowingToolSendsRule,
  supFakePrerequisiteRule,
];

export const DEFAULT_PRESET: readonly Rule[] = ALL_RULES;
