import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer, { MulterError } from 'multer';
import type { Observable } from 'rxjs';
import { BadRequestError, DomainError, PayloadTooLargeError, ValidationFailedError, type ValidationIssue } from '../common/errors';
import { quoteName } from './archive/entry-name';
import { formatBytes } from './archive/scan-limits';
import { SCAN_UPLOAD_LIMIT_BYTES } from './scanner.tokens';

export const UPLOAD_FIELD = 'file';

const issue = (msg: string, type: string, loc: ValidationIssue['loc'] = ['body', UPLOAD_FIELD]): ValidationFailedError =>
  new ValidationFailedError([{ loc, msg, type }]);

/**
 * Parses the scan upload (multipart, exactly one field `file`) into memory with multer, refusing
 * an oversized file while it streams (413 naming the file and the limit). Runs after the guards,
 * so unauthenticated uploads are never buffered. Maps multer/busboy failures to the domain errors
 * of docs/errors.md: 413 size, 422 missing/other/extra field or malformed multipart, 400 empty.
 */
@Injectable()
export class ScanUploadInterceptor implements NestInterceptor {
  private readonly upload: ReturnType<ReturnType<typeof multer>['single']>;

  constructor(@Inject(SCAN_UPLOAD_LIMIT_BYTES) private readonly limitBytes: number) {
    this.upload = multer({
      storage: multer.memoryStorage(),
      // Keep client-side paths (`.claude/settings.json` says what the file is); names are UTF-8.
      preservePath: true,
      defParamCharset: 'utf8',
      limits: { fileSize: limitBytes, files: 1, fields: 0, parts: 1, fieldNameSize: 100, headerPairs: 20 },
    }).single(UPLOAD_FIELD);
  }

  private mapError(err: unknown): DomainError {
    if (err instanceof DomainError) return err;
    if (err instanceof MulterError) {
      const name = (err as MulterError & { filename?: string }).filename;
      switch (err.code) {
        case 'LIMIT_FILE_SIZE':
          return new PayloadTooLargeError(
            `Upload exceeds a limit: ${name ? `file ${quoteName(name)}` : 'the uploaded file'} is larger than ${formatBytes(this.limitBytes)} (limit per upload).`,
          );
        case 'LIMIT_FILE_COUNT':
          return issue('exactly one file is accepted; the upload had more than one', 'value_error.too_many_files');
        case 'LIMIT_UNEXPECTED_FILE':
          return issue(`field required: the upload must be sent in a field named "${UPLOAD_FIELD}" (got ${quoteName(err.field ?? '')})`, 'value_error.missing');
        case 'LIMIT_FIELD_COUNT':
        case 'LIMIT_PART_COUNT':
          return issue(`only one part, the "${UPLOAD_FIELD}" field, is accepted`, 'value_error.extra_fields', ['body']);
        default:
          return issue('malformed multipart field', 'value_error.multipart');
      }
    }
    return issue('malformed multipart/form-data body', 'value_error.multipart');
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    if (!req.is('multipart/form-data')) {
      throw issue(`field required: send multipart/form-data with one field named "${UPLOAD_FIELD}"`, 'value_error.missing');
    }
    await new Promise<void>((resolve, reject) => {
      this.upload(req, res, (err?: unknown) => (err ? reject(this.mapError(err)) : resolve()));
    });
    if (!req.file) throw issue('field required', 'value_error.missing');
    if (req.file.size === 0) throw new BadRequestError('Upload is empty.');
    return next.handle();
  }
}
