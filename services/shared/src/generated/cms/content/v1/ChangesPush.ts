// Original file: proto/cms/content/v1/content.proto

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
}
