declare module 'ajv-formats-draft2019' {
  import type Ajv from 'ajv';

  /** Adds the draft 2019-09 formats (the CycloneDX library's validator uses `idn-email`). */
  export default function addFormatsDraft2019(ajv: Ajv, options?: { formats?: string[] }): Ajv;
}
