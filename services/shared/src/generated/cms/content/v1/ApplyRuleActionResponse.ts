// Original file: proto/cms/content/v1/content.proto


export interface ApplyRuleActionResponse {
  'path'?: (string);
}

export interface ApplyRuleActionResponse__Output {
  'path': (string);
}
