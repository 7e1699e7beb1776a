// Original file: proto/cms/content/v1/content.proto

import type { Long } from '@grpc/proto-loader';

export interface TypeCounts {
  'counts'?: ({[key: string]: number | string | Long});
}

export interface TypeCounts__Output {
  'counts': ({[key: string]: string});
}
