// Original file: proto/cms/content/v1/content.proto


export interface ExportedRelation {
  'from_attribute'?: (string);
  'to_uuid'?: (string);
}

export interface ExportedRelation__Output {
  'from_attribute': (string);
  'to_uuid': (string);
}
