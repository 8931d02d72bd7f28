/** The integrations the settings endpoint reports and the import may set. */
export const INTEGRATION_PROVIDERS = ['github', 'aws'] as const;

/** One provider's state as the import document gives it. */
export interface IntegrationImport {
  enabled: boolean;
  orgs?: string[];
  accounts?: string[];
}
