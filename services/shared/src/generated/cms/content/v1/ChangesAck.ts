// Original file: proto/cms/content/v1/content.proto

import type { Long } from '@grpc/proto-loader';

export interface ChangesAck {
  'seq'?: (number | string | Long);
  'ping'?: (number | string | Long);
}

export interface ChangesAck__Output {
  'seq': (string);
  'ping': (string);
}
