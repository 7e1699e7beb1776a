// Original file: proto/cms/content/v1/content.proto


export interface ApplyRuleActionRequest {
  'uid'?: (string);
  'action'?: (string);
  'target'?: (string);
  'transition'?: (string);
  'comment'?: (string);
}

export interface ApplyRuleActionRequest__Output {
  'uid': (string);
  'action': (string);
  'target': (string);
  'transition': (string);
  'comment': (string);
}
