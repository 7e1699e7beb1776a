// Original file: proto/cms/content/v1/content.proto

import type { ContentReplica as _cms_content_v1_ContentReplica, ContentReplica__Output as _cms_content_v1_ContentReplica__Output } from '../../../cms/content/v1/ContentReplica';
import type { Long } from '@grpc/proto-loader';

export interface ChangesPush {
  'epoch'?: (string);
  'seq'?: (number | string | Long);
  'paths'?: (string)[];
  'reset'?: (boolean);
  'heartbeat'?: (boolean);
  'pong'?: (number | string | Long);
  'blind'?: (boolean);
  'lease_ms'?: (number);
  'replicas'?: (_cms_content_v1_ContentReplica)[];
}

export interface ChangesPush__Output {
  'epoch': (string);
  'seq': (string);
  'paths': (string)[];
  'reset': (boolean);
  'heartbeat': (boolean);
  'pong': (string);
  'blind': (boolean);
  'lease_ms': (number);
  'replicas': (_cms_content_v1_ContentReplica__Output)[];
}
