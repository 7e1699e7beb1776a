import type { EndpointDeclaration } from '@cms/shared';
import { commentWorkflow } from './comment-workflow';
import { comments } from './comments';

/** Every HTTP endpoint of the discussion service; the gateway's routing table is generated from it. */
export const ENDPOINTS = [comments, commentWorkflow] as EndpointDeclaration[];
