// Original file: proto/cms/events/v1/outbox.proto


export interface AwaitPublishedRequest {
  'timeout_ms'?: (number);
}

export interface AwaitPublishedRequest__Output {
  'timeout_ms': (number);
}
