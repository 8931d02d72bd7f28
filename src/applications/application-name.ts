/**
 * The key that makes an application name unique in its tenant (`applications.name_key`): names that
 * differ only in case or surrounding spaces are one application, through the API and the import alike.
 */
export function applicationNameKey(name: string): string {
  return name.trim().toLowerCase();
}
