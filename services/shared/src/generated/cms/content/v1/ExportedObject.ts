// Original file: proto/cms/content/v1/content.proto

import type { ImportBlob as _cms_content_v1_ImportBlob, ImportBlob__Output as _cms_content_v1_ImportBlob__Output } from '../../../cms/content/v1/ImportBlob';
import type { ExportedRelation as _cms_content_v1_ExportedRelation, ExportedRelation__Output as _cms_content_v1_ExportedRelation__Output } from '../../../cms/content/v1/ExportedRelation';

export interface ExportedObject {
  'item_json'?: (Buffer | Uint8Array | string);
  'local_roles_json'?: (Buffer | Uint8Array | string);
  'position'?: (number);
  'blobs'?: (_cms_content_v1_ImportBlob)[];
  'total'?: (number);
  'relations'?: (_cms_content_v1_ExportedRelation)[];
  'aliases'?: (string)[];
  'translation_group'?: (string);
  'language'?: (string);
  'default_language'?: (string);
}

export interface ExportedObject__Output {
  'item_json': (Buffer);
  'local_roles_json': (Buffer);
  'position': (number);
  'blobs': (_cms_content_v1_ImportBlob__Output)[];
  'total': (number);
  'relations': (_cms_content_v1_ExportedRelation__Output)[];
  'aliases': (string)[];
  'translation_group': (string);
  'language': (string);
  'default_language': (string);
}
