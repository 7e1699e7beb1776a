// Original file: proto/cms/events/v1/content_snapshot.proto

import type { Long } from '@grpc/proto-loader';

export interface ContentSnapshot {
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
  'subjects'?: (string)[];
  'effective'?: (string);
  'expires'?: (string);
  'exclude_from_nav'?: (boolean);
  'language'?: (string);
  'start'?: (string);
  'end'?: (string);
  'remote_url'?: (string);
  'object_size'?: (number | string | Long);
  'mime_type'?: (string);
  'location'?: (string);
  'collection_json'?: (string);
  'image_field'?: (string);
  'image_scales_json'?: (string);
  '_review_state'?: "review_state";
  '_effective'?: "effective";
  '_expires'?: "expires";
  '_start'?: "start";
  '_end'?: "end";
}

export interface ContentSnapshot__Output {
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
  'subjects': (string)[];
  'effective'?: (string);
  'expires'?: (string);
  'exclude_from_nav': (boolean);
  'language': (string);
  'start'?: (string);
  'end'?: (string);
  'remote_url': (string);
  'object_size': (string);
  'mime_type': (string);
  'location': (string);
  'collection_json': (string);
  'image_field': (string);
  'image_scales_json': (string);
  '_review_state'?: "review_state";
  '_effective'?: "effective";
  '_expires'?: "expires";
  '_start'?: "start";
  '_end'?: "end";
}
