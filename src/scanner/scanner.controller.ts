import { Controller, HttpCode, Post, Req, UseInterceptors } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../auth/auth.decorators';
import { SCAN_REPORT_EXAMPLE } from './dto/scan-report.example';
import { ScanUploadDto } from './dto/scan-upload.dto';
import { scanReportSchema } from './engine/scan-report.schema';
import type { ScanReport } from './engine/scan-report.types';
import { ScanUploadInterceptor } from './scan-upload.interceptor';
import { ScannerService } from './scanner.service';

/** `POST /api/agent_files/scan` (docs/scanner-pipeline.md): synchronous, stateless. */
@ApiTags('scanner')
@ApiBearerAuth()
@Controller('api/agent_files')
export class ScannerController {
  constructor(private readonly scanner: ScannerService) {}

  @Post('scan')
  @HttpCode(200)
  @RequireScopes('scan')
  @UseInterceptors(ScanUploadInterceptor)
  @ApiOperation({
    summary: 'Scan one agent file or a .zip bundle for agent-targeting risk',
    description: 'Returns a safety score (100 safest), an assessed intent and findings per file. Nothing is stored. See docs/scanner-pipeline.md.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: ScanUploadDto })
  @ApiOkResponse({ description: 'Scan report', schema: { ...scanReportSchema, example: SCAN_REPORT_EXAMPLE } as never })
  @ApiBadRequestResponse({ description: 'Upload empty, or could not be extracted (malformed or unsafe zip)' })
  @ApiUnauthorizedResponse({ description: 'Missing, expired or invalid token' })
  @ApiPayloadTooLargeResponse({ description: 'A size limit was exceeded; the detail names the file and the limit' })
  @ApiUnprocessableEntityResponse({ description: '`file` missing or malformed' })
  @ApiBadGatewayResponse({ description: 'The scanner ran but produced no result (worker crash, internal deadline)' })
  @ApiServiceUnavailableResponse({ description: 'Capacity saturated (with Retry-After) or scanner unavailable (without)' })
  scan(@Req() req: Request): Promise<ScanReport> {
    const file = req.file!; // guaranteed by ScanUploadInterceptor
    return this.scanner.scan({ filename: file.originalname ?? null, bytes: file.buffer });
  }
}
