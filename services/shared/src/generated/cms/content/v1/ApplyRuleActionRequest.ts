// Original file: proto/cms/content/v1/content.proto


export interface ApplyRuleActionRequest {
  'uid'?: (string);
  'action'?: (string);
  'target'?: (string);
  'transition'?: (string);
  'comment'?: (string);
  'action_key'?: (string);
}

export interface ApplyRuleActionRequest__Output {
  'uid': (string);
  'action': (string);
  'target': (string);
  'transition': (string);
  'comment': (string);
  'action_key': (string);
}
