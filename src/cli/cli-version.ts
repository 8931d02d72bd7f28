import { packageVersion } from '../common/package-version';

/** The CLI reports the product version (src/common/package-version.ts). */
export const cliVersion = packageVersion;

export const userAgent = (): string => `bulwark-cli/${cliVersion()} node/${process.versions.node}`;
