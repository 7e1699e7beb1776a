// Original file: proto/cms/content/v1/content.proto

import type { Long } from '@grpc/proto-loader';

export interface ChangesRequest {
  'epoch'?: (string);
  'since'?: (number | string | Long);
}

export interface ChangesRequest__Output {
  'epoch': (string);
  'since': (string);
}
