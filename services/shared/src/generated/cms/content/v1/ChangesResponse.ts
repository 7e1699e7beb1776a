// Original file: proto/cms/content/v1/content.proto

import type { Long } from '@grpc/proto-loader';

export interface ChangesResponse {
  'epoch'?: (string);
  'seq'?: (number | string | Long);
  'paths'?: (string)[];
  'reset'?: (boolean);
}

export interface ChangesResponse__Output {
  'epoch': (string);
  'seq': (string);
  'paths': (string)[];
  'reset': (boolean);
}
