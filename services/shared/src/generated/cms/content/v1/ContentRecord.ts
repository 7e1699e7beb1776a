// Original file: proto/cms/content/v1/content.proto


export interface ContentRecord {
  'uid'?: (string);
  'path'?: (string);
  'id'?: (string);
  'portal_type'?: (string);
  'title'?: (string);
  'description'?: (string);
  'review_state'?: (string);
  'version'?: (number);
  'created'?: (string);
  'modified'?: (string);
  'creators'?: (string)[];
  'parent_uid'?: (string);
  'is_folderish'?: (boolean);
  'position'?: (number);
  'searchable_text'?: (string);
  'type_title'?: (string);
  'allowed_roles_and_users'?: (string)[];
  '_review_state'?: "review_state";
}

export interface ContentRecord__Output {
  'uid': (string);
  'path': (string);
  'id': (string);
  'portal_type': (string);
  'title': (string);
  'description': (string);
  'review_state'?: (string);
  'version': (number);
  'created': (string);
  'modified': (string);
  'creators': (string)[];
  'parent_uid': (string);
  'is_folderish': (boolean);
  'position': (number);
  'searchable_text': (string);
  'type_title': (string);
  'allowed_roles_and_users': (string)[];
  '_review_state'?: "review_state";
}
