/** A multipart/form-data body with one `file` field, prepared once so the load client replays bytes. */
import { randomBytes } from 'node:crypto';

export function multipartFile(filename: string, bytes: Uint8Array, contentType = 'application/octet-stream'): { body: Buffer; contentType: string } {
  const boundary = `----bulwarkbench${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename.replace(/"/g, '%22')}"\r\nContent-Type: ${contentType}\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  return { body: Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(tail)]), contentType: `multipart/form-data; boundary=${boundary}` };
}
