import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../auth/auth.decorators';
import { RateLimitClass } from '../rate-limit/rate-limit.decorators';
import { ProtectedResourceMetadata, type ProtectedResourceDocument } from './protected-resource.metadata';

/**
 * `GET /.well-known/oauth-protected-resource` (what the 401 of /mcp points at) and its
 * path-suffixed form `/.well-known/oauth-protected-resource/mcp` (RFC 9728 §3.1, which current
 * MCP clients try first). Public, static, not charged to any budget.
 */
@ApiExcludeController()
@Public()
@RateLimitClass('none')
@Controller('.well-known/oauth-protected-resource')
export class ProtectedResourceController {
  constructor(private readonly metadata: ProtectedResourceMetadata) {}

  @Get()
  root(): ProtectedResourceDocument {
    return this.metadata.document();
  }

  @Get('mcp')
  forMcp(): ProtectedResourceDocument {
    return this.metadata.document();
  }
}
