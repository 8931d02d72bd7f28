import type { NextFunction, Request, RequestHandler, Response } from 'express';

export interface BodyCapOptions {
  /** Largest declared body for JSON routes (JSON_BODY_LIMIT_BYTES). */
  jsonLimitBytes: number;
  /** Largest declared body for the scan upload: the upload limit plus multipart framing. */
  uploadLimitBytes: number;
}

/** Multipart boundaries and part headers around the one file: generous, still tiny. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const SCAN_PATH = '/api/agent_files/scan';

/**
 * Refuses, before auth and before any parser reads a byte, a request whose declared
 * Content-Length exceeds what its route can accept: 413, and the connection is closed so the body
 * is never read. Bodies without a declared length are bounded where they are read (the JSON
 * parser's limit, multer's limits); a body no parser wants is discarded by Node without buffering,
 * within the server's request timeout.
 */
export function requestBodyCap(options: BodyCapOptions): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const declared = req.headers['content-length'];
    if (declared === undefined) return next();
    const length = Number(declared);
    const limit = req.path === SCAN_PATH ? options.uploadLimitBytes : options.jsonLimitBytes;
    if (!Number.isFinite(length) || length <= limit) return next();
    res.setHeader('Connection', 'close');
    res.status(413).json({ detail: `Request body exceeds the size limit: ${length} bytes declared, at most ${limit} accepted on this route` });
  };
}
